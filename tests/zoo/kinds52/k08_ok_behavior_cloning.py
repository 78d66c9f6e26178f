"""
expect: none
dynamic: dismiss
source: kinds check 52, kind 4

Behaviour cloning for a robot arm: the base Trainer holds the model and its
Adam optimizer; the subclass computes a per-demonstration MSE through
self.policy and combines them with torch.stack, so the graph is kept and the
policy weights move after the base class's step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Trainer:
    def __init__(self, policy):
        self.policy = policy
        self.opt = torch.optim.Adam(policy.parameters(), lr=1e-2)

    def step(self, loss):
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


class CloneTrainer(Trainer):
    def update(self, demos):
        losses = [F.mse_loss(self.policy(obs), act) for obs, act in demos]
        return self.step(torch.stack(losses).mean())


torch.manual_seed(7)
arm_policy = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 3))
trainer = CloneTrainer(arm_policy)
demos = [(torch.randn(10, 6), torch.randn(10, 3)) for _ in range(4)]
w0 = arm_policy[0].weight.detach().clone()
first = trainer.update(demos)
for _ in range(20):
    last = trainer.update(demos)
assert not torch.equal(w0, arm_policy[0].weight)
assert last < first
print("ok: stacked losses train the policy")
