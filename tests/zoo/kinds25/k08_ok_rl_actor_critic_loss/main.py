"""
expect: none
dynamic: dismiss
source: kinds check 25, kind 2

Advantage actor-critic on a random 2-armed contextual bandit. The loss object (losses.py)
receives attached log-probs, values and entropy plus two detached tensors: the returns (a
regression target for the critic) and the advantages (returns - values, detached, used as a
weight on the attached log-prob term). Each term still holds an attached factor, so both the
policy head and the value head train; the detach only stops the critic's gradient leaking
into the policy term.
"""
import torch
import torch.nn as nn

from losses import ActorCriticLoss

torch.manual_seed(0)
torch.set_num_threads(1)


class ActorCritic(nn.Module):
    def __init__(self, obs=6, n_act=2):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 32), nn.Tanh())
        self.pi = nn.Linear(32, n_act)
        self.v = nn.Linear(32, 1)

    def forward(self, obs):
        h = self.body(obs)
        return torch.distributions.Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)


net = ActorCritic()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
crit = ActorCriticLoss()
w_true = torch.randn(6)

rewards_hist = []
for it in range(150):
    obs = torch.randn(64, 6)
    dist, values = net(obs)
    actions = dist.sample()
    good = (obs @ w_true > 0).long()
    returns = (actions == good).float()
    advantages = (returns - values).detach()
    loss = crit(dist.log_prob(actions), values, returns, advantages, dist.entropy())
    opt.zero_grad()
    loss.backward()
    for name, p in net.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
    rewards_hist.append(returns.mean().item())

first, last = sum(rewards_hist[:20]) / 20, sum(rewards_hist[-20:]) / 20
assert last > first + 0.1, (first, last)
print("ok: mean reward", round(first, 3), "->", round(last, 3))
