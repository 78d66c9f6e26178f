"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 5 (written for this check)

Behaviour cloning for a 7-DoF arm. A base class keeps observation statistics and an action-noise prior as
nn.Parameters (so they land in the state_dict) that are set by hand via `.data = ...` / `.data.fill_()` and read only
through `.data`; the subclass adds the policy MLP, and the optimizer holds only that MLP. The asserts show every MLP
parameter gets a nonzero gradient, the statistics/prior get no gradient, and they change only via the manual update.
"""
import math

import torch
import torch.nn as nn


class NormalizedPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.obs_mean = nn.Parameter(torch.zeros(obs_dim))
        self.obs_std = nn.Parameter(torch.ones(obs_dim))
        self.log_std_prior = nn.Parameter(torch.empty(act_dim))
        self.log_std_prior.data.fill_(math.log(0.1))

    @torch.no_grad()
    def observe(self, obs, momentum=0.9):
        self.obs_mean.data = momentum * self.obs_mean.data + (1 - momentum) * obs.mean(0)
        self.obs_std.data = momentum * self.obs_std.data + (1 - momentum) * obs.std(0).clamp(min=1e-3)

    def normalize(self, obs):
        return (obs - self.obs_mean.data) / self.obs_std.data

    def nll(self, mean, actions):
        log_std = self.log_std_prior.data
        return (0.5 * ((actions - mean) / log_std.exp()) ** 2 + log_std).sum(-1).mean()


class ArmBCPolicy(NormalizedPolicy):
    def __init__(self, obs_dim=20, act_dim=7):
        super().__init__(obs_dim, act_dim)
        self.mlp = nn.Sequential(nn.Linear(obs_dim, 64), nn.SiLU(), nn.Linear(64, act_dim))

    def forward(self, obs):
        return self.mlp(self.normalize(obs))


torch.manual_seed(13)
policy = ArmBCPolicy()
opt = torch.optim.Adam(policy.mlp.parameters(), lr=1e-3)
stats_before = policy.obs_mean.detach().clone()
prior_before = policy.log_std_prior.detach().clone()

for _ in range(6):
    obs = torch.randn(32, 20) * 3 + 1
    actions = torch.tanh(obs[:, :7])
    policy.observe(obs)
    loss = policy.nll(policy(obs), actions)
    opt.zero_grad()
    loss.backward()
    for p in policy.mlp.parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0
    opt.step()

for frozen in (policy.obs_mean, policy.obs_std, policy.log_std_prior):
    assert frozen.grad is None
assert not torch.equal(policy.obs_mean.detach(), stats_before)   # moved by observe()
assert torch.equal(policy.log_std_prior.detach(), prior_before)  # fixed prior
print("ok: normalizer stats and noise prior are hand-set parameters; MLP trains")
