"""
expect: GL002 33
dynamic: confirm
source: kinds check 38, kind 3

A policy-gradient trainer adds an entropy bonus through a helper method that
returns dist.entropy().mean().item(). The caller subtracts that Python float
from the loss it backpropagates, so the bonus never reaches the policy's
gradient: the update is identical with or without it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Policy(nn.Module):
    def __init__(self, obs=8, act=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs, 32), nn.Tanh(), nn.Linear(32, act))

    def forward(self, s):
        return torch.distributions.Categorical(logits=self.net(s))


class PGTrainer:
    def __init__(self, policy, beta=0.05):
        self.policy = policy
        self.beta = beta
        self.opt = torch.optim.Adam(policy.parameters(), lr=3e-4)

    def entropy_bonus(self, dist):
        return dist.entropy().mean().item()

    def loss(self, states, actions, returns, use_bonus=True):
        dist = self.policy(states)
        pg = -(dist.log_prob(actions) * returns).mean()
        if use_bonus:
            return pg - self.beta * self.entropy_bonus(dist)
        return pg

    def grads(self, *batch, use_bonus):
        self.policy.zero_grad()
        self.loss(*batch, use_bonus=use_bonus).backward()
        return [p.grad.clone() for p in self.policy.parameters()]


policy = Policy()
trainer = PGTrainer(policy)
states = torch.randn(20, 8)
actions = torch.randint(0, 4, (20,))
returns = torch.randn(20)

g_with = trainer.grads(states, actions, returns, use_bonus=True)
g_without = trainer.grads(states, actions, returns, use_bonus=False)
for a, b in zip(g_with, g_without):
    assert torch.equal(a, b), "entropy bonus should contribute no gradient"
assert trainer.loss(states, actions, returns).item() != \
    trainer.loss(states, actions, returns, use_bonus=False).item()
print("ok: entropy bonus is a Python float; gradients identical with/without it")
