"""
expect: GL002 40
dynamic: confirm
source: kinds check 52, kind 4

A REINFORCE learner for a contextual bandit: the base Learner keeps the policy
and its optimizer and does the step; the subclass builds per-sample
policy-gradient losses through self.policy, then copies their values into a
fresh torch.tensor(..., requires_grad=True) before backward. The copy is a new
leaf, so the policy weights never get a gradient and never move.
"""
import torch
import torch.nn as nn


class Learner:
    def __init__(self, policy, lr=0.05):
        self.policy = policy
        self.opt = torch.optim.SGD(policy.parameters(), lr=lr)

    def apply(self, loss):
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()


class Reinforce(Learner):
    def update(self, contexts, rewards_table):
        losses = []
        for ctx in contexts:
            logits = self.policy(ctx)
            dist = torch.distributions.Categorical(logits=logits)
            arm = dist.sample()
            r = rewards_table[arm]
            losses.append(-dist.log_prob(arm) * r)
        self.apply(self.batch_loss(losses))
        return losses

    def batch_loss(self, losses):
        per_sample = torch.tensor([l.item() for l in losses], requires_grad=True)
        return per_sample.mean()


torch.manual_seed(6)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
agent = Reinforce(policy)
rewards = torch.tensor([0.1, 1.0, -0.5])
w0 = [p.detach().clone() for p in policy.parameters()]
for _ in range(5):
    losses = agent.update(torch.randn(8, 4), rewards)
assert all(p.grad is None for p in policy.parameters())
assert all(torch.equal(a, b) for a, b in zip(w0, policy.parameters()))
# intended: stacking keeps the graph and the policy gets a gradient
torch.stack(agent.update(torch.randn(8, 4), rewards)).mean().backward()
assert policy[0].weight.grad is not None and policy[0].weight.grad.abs().sum() > 0
print("ok: torch.tensor copy of losses freezes the policy")
