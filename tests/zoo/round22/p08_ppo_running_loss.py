"""
expect: GL004 64
dynamic: confirm
source: https://github.com/google/brax/pull/152

A pull request to the PyTorch training notebook of a physics-simulation RL library
removed a "memory leak": the PPO loop added each update's loss tensor, with its
grad_fn, into a running total that lived across the whole training run (the fix is
`total_loss += float(loss)`, here `.item()`). This program has a small actor-critic agent whose update
method keeps `self.total_loss += loss` for logging. The asserts show the number of
autograd nodes reachable from the running total grows with every update, while the
float version holds no graph and training is otherwise identical.
"""
import torch
import torch.nn as nn
from torch.distributions import Normal

torch.set_num_threads(1)


def graph_size(t):
    if not isinstance(t, torch.Tensor) or t.grad_fn is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class Agent(nn.Module):
    def __init__(self, obs_dim=6, act_dim=2):
        super().__init__()
        self.pi = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, act_dim))
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.log_std = nn.Parameter(torch.zeros(act_dim))
        self.opt = torch.optim.Adam(self.parameters(), lr=3e-4)
        self.total_loss = 0.0

    def loss(self, obs, act, old_logp, adv, ret, clip=0.2):
        dist = Normal(self.pi(obs), self.log_std.exp())
        ratio = (dist.log_prob(act).sum(-1) - old_logp).exp()
        pg = -torch.min(ratio * adv, ratio.clamp(1 - clip, 1 + clip) * adv).mean()
        vf = (self.v(obs).squeeze(-1) - ret).pow(2).mean()
        return pg + 0.5 * vf

    def rollout(self, n=64):
        obs = torch.randn(n, 6)
        with torch.no_grad():
            dist = Normal(self.pi(obs), self.log_std.exp())
            act = dist.sample()
            old_logp = dist.log_prob(act).sum(-1)
        ret = torch.randn(n)
        return obs, act, old_logp, ret - ret.mean(), ret

    def update(self, batch):
        loss = self.loss(*batch)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.total_loss += loss
        return loss


class FixedAgent(Agent):
    def update(self, batch):
        loss = self.loss(*batch)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        self.total_loss += loss.item()
        return loss


def train(agent, updates=5):
    sizes = []
    for _ in range(updates):
        agent.update(agent.rollout())
        sizes.append(graph_size(agent.total_loss))
    return sizes


torch.manual_seed(0)
sizes = train(Agent())
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes

torch.manual_seed(0)
fixed = FixedAgent()
assert train(fixed) == [0] * 5 and isinstance(fixed.total_loss, float)
print("p08 ok: running loss total keeps every update's graph alive", sizes)
