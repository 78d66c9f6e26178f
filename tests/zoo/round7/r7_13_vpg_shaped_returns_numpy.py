"""expect: GL002 61
dynamic: confirm
source: https://github.com/rlworkgroup/garage/pull/1317

garage's PyTorch VPG computes discounted returns in process_samples() with a
NumPy helper (`discount_cumsum(path['rewards'], discount).copy()`) and turns
them back into tensors. In the review of that pull request the maintainer
warned: "When you call copy() you break the gradient path. If your returns
have a differentiable component, e.g. a differentiable reward augmentation,
your augmented rewards will no longer be differentiable." This program is
that case: a learned reward-shaping head adds a bonus to the environment
reward and is trained jointly through the policy-gradient objective, but the
returns are rebuilt from NumPy values, so the shaping head (held by the same
optimizer) never gets a gradient. Fix: compute the discounted sum with torch
ops (e.g. a reversed cumulative loop or a matrix of discounts).
"""
import numpy as np
import torch
import torch.nn as nn


def discount_cumsum(x, discount):
    out = np.zeros_like(x)
    running = 0.0
    for t in reversed(range(len(x))):
        running = x[t] + discount * running
        out[t] = running
    return out


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.mean = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh(), nn.Linear(16, act_dim))
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def dist(self, obs):
        return torch.distributions.Normal(self.mean(obs), self.log_std.exp())


class RewardShaping(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.bonus = nn.Linear(obs_dim, 1)

    def forward(self, obs):
        return 0.1 * torch.tanh(self.bonus(obs)).squeeze(-1)


def rollout(policy, horizon, obs_dim, g):
    obs = torch.randn(horizon, obs_dim, generator=g)
    with torch.no_grad():
        actions = policy.dist(obs).sample()
    env_rewards = -(actions ** 2).sum(-1)
    return dict(observations=obs, actions=actions, env_rewards=env_rewards)


def process_samples(paths, shaping, discount):
    for path in paths:
        rewards = path["env_rewards"] + shaping(path["observations"])
        path["returns"] = torch.as_tensor(discount_cumsum(rewards.detach().numpy(), discount).copy())
    return paths


def train_once(policy, shaping, optimizer, paths, discount=0.99):
    paths = process_samples(paths, shaping, discount)
    optimizer.zero_grad()
    loss = 0.0
    for path in paths:
        logp = policy.dist(path["observations"]).log_prob(path["actions"]).sum(-1)
        loss = loss - (logp * path["returns"]).mean()
    loss = loss / len(paths)
    loss.backward()
    optimizer.step()


torch.manual_seed(0)
g = torch.Generator().manual_seed(0)
policy, shaping = GaussianPolicy(4, 2), RewardShaping(4)
optimizer = torch.optim.Adam(list(policy.parameters()) + list(shaping.parameters()), lr=1e-2)
paths = [rollout(policy, 20, 4, g) for _ in range(3)]
train_once(policy, shaping, optimizer, paths)

assert all(p.grad is not None for p in policy.parameters())
assert shaping.bonus.weight.grad is None and shaping.bonus.bias.grad is None
assert paths[0]["returns"].grad_fn is None
print("OK")
