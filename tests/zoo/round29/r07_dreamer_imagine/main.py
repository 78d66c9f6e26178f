"""
expect: none
dynamic: dismiss
source: https://github.com/jsikyoon/dreamer-torch/issues/9

Dreamer-style actor learning in imagination. In `imagine()` the policy reads a
detached copy of the latent state (`stop_grad_actor`), and the issue asked whether
that cuts the actor off. It does not: the action still feeds the dynamics, so the
imagined return reaches the actor through action -> next state -> reward; only the
path into the policy's own input is stopped, on purpose. The world model is frozen
for this step. The asserts show the actor gets gradient, the return improves over
a few steps, and the world model's weights are untouched.
"""
import torch
import torch.nn as nn
from world_model import LatentDynamics, imagine

torch.manual_seed(0)
torch.set_num_threads(1)

dyn = LatentDynamics()
for p in dyn.parameters():
    p.requires_grad_(False)
policy = nn.Sequential(nn.Linear(8, 32), nn.ELU(), nn.Linear(32, 2), nn.Tanh())
opt = torch.optim.Adam(policy.parameters(), lr=3e-3)
start = torch.randn(32, 8)
before = [p.clone() for p in dyn.parameters()]


def imagined_return():
    traj = imagine(dyn, policy, start, horizon=5)
    return dyn.reward(traj).mean()


first = imagined_return().item()
for _ in range(30):
    ret = imagined_return()
    opt.zero_grad()
    (-ret).backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in policy.parameters())
    opt.step()
assert imagined_return().item() > first
assert all(torch.equal(a, b) for a, b in zip(before, dyn.parameters()))
print("ok")
