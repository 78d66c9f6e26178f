"""
expect: GL005 sac_agent.py:80
dynamic: confirm
source: https://github.com/toshikwa/soft-actor-critic.pytorch/issues/1

Soft actor-critic. The agent's learn() builds the critic losses and the policy
loss first and only then runs the updates: the critic optimizer steps, and the
policy loss, whose graph went through the twin Q networks, is back-propagated
afterwards. Adam's step rewrites the Q-network weights in place, and those
weights were saved by the Linear layers of the policy-loss graph, so the policy
backward fails with "modified by an inplace operation" on a current PyTorch (old
versions silently used the new weights). The reporter's fix is to compute the
policy loss after the critic update. The asserts show the error on the default
ordering and that the reordered agent trains: the policy gets a non-zero
gradient and its parameters move.
"""
import torch

from sac_agent import SacAgent

torch.manual_seed(0)
torch.set_num_threads(1)

OBS, ACT, B = 6, 2, 64


def make_batch():
    states = torch.randn(B, OBS)
    actions = torch.rand(B, ACT) * 2 - 1
    rewards = torch.randn(B, 1)
    next_states = torch.randn(B, OBS)
    dones = (torch.rand(B, 1) < 0.1).float()
    return states, actions, rewards, next_states, dones


agent = SacAgent(OBS, ACT)
batch = make_batch()
try:
    agent.learn(batch)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "modified by an inplace operation" in raised, raised
print("buggy ordering raised:", raised.splitlines()[0][:100])

# fixed: policy loss computed after the critic step
torch.manual_seed(0)
fixed = SacAgent(OBS, ACT, policy_after_critic=True)
before = [p.detach().clone() for p in fixed.policy.parameters()]
for _ in range(20):
    fixed.learn(make_batch())
    gnorm = sum(p.grad.abs().sum().item() for p in fixed.policy.parameters()
                if p.grad is not None)
    assert gnorm > 0
moved = sum((p.detach() - b).abs().sum().item()
            for p, b in zip(fixed.policy.parameters(), before))
assert moved > 1e-3, moved
print("fixed ordering trains the policy, parameter change:", round(moved, 4))
