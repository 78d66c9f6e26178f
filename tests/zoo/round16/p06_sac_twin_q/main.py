"""
expect: GL005 sac_agent.py:46
expect: GL005 sac_agent.py:49
dynamic: confirm
source: https://github.com/microsoft/oac-explore/issues/27

The report: the SAC trainer builds the policy loss through qf1/qf2, then backpropagates and
steps the two Q optimizers (retain_graph=True) before calling backward on the policy loss, and
newer PyTorch raises "modified by an inplace operation". This program keeps the trainer in its
own module. The Q optimizers' step() rewrites the Q weights in place (their version counter
moves) while the policy loss graph still holds them as saved tensors for the grad w.r.t. the
action, so policy_loss.backward() raises; the asserts catch that error and show the reordered
update (Q steps first, then a fresh policy forward) runs and moves the policy weights.
"""
import torch

from sac_agent import Policy, QNet, SACTrainer

torch.manual_seed(0)
obs = torch.randn(16, 4)
actions = torch.rand(16, 2) * 2 - 1
q_target = torch.randn(16, 1)

trainer = SACTrainer(Policy(4, 2), QNet(4, 2), QNet(4, 2))
w_l2 = trainer.qf1.l2.weight
v0 = w_l2._version
try:
    trainer.train_step(obs, actions, q_target)
    raised = False
except RuntimeError as e:
    raised = "inplace" in str(e)
assert raised, "policy backward should fail after the Q optimizer steps"
assert w_l2._version > v0, "qf1 weights were rewritten in place"

trainer2 = SACTrainer(Policy(4, 2), QNet(4, 2), QNet(4, 2))
before = trainer2.policy.mu.weight.detach().clone()
trainer2.train_step_v2(obs, actions, q_target)
assert not torch.equal(before, trainer2.policy.mu.weight)
print("ok: optimizer step between backward calls through one graph raises inplace error")
