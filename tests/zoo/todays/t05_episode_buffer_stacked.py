"""expect: none
dynamic: dismiss
source: https://ai.stackexchange.com/questions/41279/reinforce-with-baseline-not-learning

Same layout as a REINFORCE agent that keeps per-step log-probabilities in a list on a
plain helper object and consumes them in a separate method, but here the list is joined
with torch.stack, which is a differentiable op: the stacked vector keeps its grad_fn and
the policy gradient reaches the policy network. The returns are plain Python floats and
are packed with torch.tensor, which is fine because they need no gradient.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class EpisodeBuffer:
    def __init__(self, gamma=0.9):
        self.gamma = gamma
        self.scores = []
        self.payoffs = []

    def push(self, score, payoff):
        self.scores.append(score)
        self.payoffs.append(payoff)

    def policy_objective(self):
        acc, rets = 0.0, []
        for p in self.payoffs[::-1]:
            acc = p + self.gamma * acc
            rets.append(acc)
        rets.reverse()
        rets = torch.tensor(rets)
        rets = (rets - rets.mean()) / (rets.std() + 1e-6)
        joined = torch.stack(self.scores)
        return -(joined * rets).sum()


torch.manual_seed(11)
policy = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
optim = torch.optim.Adam(policy.parameters(), lr=1e-2)
buf = EpisodeBuffer()
for t in range(8):
    state = torch.randn(4)
    d = Categorical(logits=policy(state))
    a = d.sample()
    buf.push(d.log_prob(a), 1.0 if a.item() == 0 else 0.0)

old = policy[0].weight.detach().clone()
optim.zero_grad()
obj = buf.policy_objective()
obj.backward()
optim.step()

assert obj.grad_fn is not None
assert all(p.grad is not None for p in policy.parameters())
assert not torch.equal(old, policy[0].weight)
print("policy updated; objective", obj.item())
