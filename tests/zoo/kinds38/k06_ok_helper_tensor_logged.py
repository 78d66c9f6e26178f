"""
expect: none
dynamic: dismiss
source: kinds check 38, kind 3

Same policy-gradient trainer, but the entropy helper returns the tensor; the
caller subtracts the tensor from the loss and only the logging line calls
.item(). The bonus therefore changes the policy's gradient.
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
        self.log = []

    def entropy_bonus(self, dist):
        return dist.entropy().mean()

    def loss(self, states, actions, returns, use_bonus=True):
        dist = self.policy(states)
        pg = -(dist.log_prob(actions) * returns).mean()
        if use_bonus:
            ent = self.entropy_bonus(dist)
            self.log.append(ent.item())
            return pg - self.beta * ent
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
assert any(not torch.allclose(a, b) for a, b in zip(g_with, g_without)), \
    "entropy bonus should contribute gradient"
assert len(trainer.log) == 1 and isinstance(trainer.log[0], float)
print("ok: entropy bonus trains the policy; only the log holds a float")
