"""
expect: GL005 cql_trainer.py:56
dynamic: confirm
source: https://github.com/aviralkumar2907/CQL/issues/5

An offline-RL CQL trainer builds the policy loss first (its graph runs through the Q-function, which saves its
weights for backward), then computes the conservative critic loss, steps the Q-function optimizer, and only then
calls backward on the policy loss. Adam's in-place parameter update bumps the version counter of the Q weights
that the policy graph saved, so policy_loss.backward() raises "modified by an inplace operation" (the report
shows the [256, 1] output of TBackward at version 40001, expected 40000). The program catches that RuntimeError
from the trainer and then runs the repository's later ordering (policy update first, then the critic), which
trains both networks.
"""
import torch

from cql_trainer import CQLTrainer
from networks import QFunction, TanhGaussianPolicy

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACT, N = 6, 2, 64


def offline_batch():
    obs = torch.randn(N, OBS)
    actions = torch.rand(N, ACT) * 2 - 1
    rewards = torch.randn(N, 1)
    next_obs = obs + 0.1 * torch.randn(N, OBS)
    terminals = (torch.rand(N, 1) < 0.05).float()
    return obs, actions, rewards, next_obs, terminals


def policy_first_step(trainer, batch):
    obs, actions, rewards, next_obs, terminals = batch
    policy_loss = trainer._policy_and_alpha(obs)
    trainer.policy_optimizer.zero_grad()
    policy_loss.backward()
    trainer.policy_optimizer.step()
    qf_loss = trainer._critic_loss(obs, actions, rewards, next_obs, terminals)
    trainer.qf_optimizer.zero_grad()
    qf_loss.backward()
    trainer.qf_optimizer.step()


batch = offline_batch()
trainer = CQLTrainer(TanhGaussianPolicy(OBS, ACT), QFunction(OBS, ACT))
policy_before = [p.detach().clone() for p in trainer.policy.parameters()]
try:
    trainer.train_from_batch(batch)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "modified by an inplace operation" in raised, raised
assert all(torch.equal(a, b) for a, b in zip(policy_before, trainer.policy.parameters()))
print("critic-first update order: policy backward rejected by the version check, as in the report")

torch.manual_seed(1)
fixed = CQLTrainer(TanhGaussianPolicy(OBS, ACT), QFunction(OBS, ACT))
pol0 = [p.detach().clone() for p in fixed.policy.parameters()]
qf0 = [p.detach().clone() for p in fixed.qf.parameters()]
for _ in range(5):
    policy_first_step(fixed, offline_batch())
assert any(not torch.equal(a, b) for a, b in zip(pol0, fixed.policy.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(qf0, fixed.qf.parameters()))
print("policy-first update order trains both the policy and the Q-function")
