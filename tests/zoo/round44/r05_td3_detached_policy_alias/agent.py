"""TD3 pieces: actor, twin critic, replay buffer, a gradient-free rollout copy of the actor and Polyak updates."""
import copy

import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)

    def explore(self, obs, noise_std=0.1):
        with torch.no_grad():
            act = self(obs)
            return (act + noise_std * torch.randn_like(act)).clamp(-1.0, 1.0)


class TwinCritic(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))
        self.q2 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        x = torch.cat([obs, act], dim=-1)
        return self.q1(x), self.q2(x)


def detached_alias(module):
    """A structural copy whose weights are the *same storage* as module's, without autograd.

    Rollout workers call it under no_grad; because the tensors alias the live
    parameters, every optimizer step on `module` is visible to the copy at once.
    """
    alias = copy.deepcopy(module)
    for sub_alias, sub in zip(alias.modules(), module.modules()):
        for name, param in list(sub._parameters.items()):
            if param is None:
                continue
            del sub_alias._parameters[name]
            setattr(sub_alias, name, param.data)
    return alias


@torch.no_grad()
def soft_update(src, tgt, tau):
    src_ps = [p.data for p in src.parameters()]
    tgt_ps = [p.data for p in tgt.parameters()]
    torch._foreach_mul_(tgt_ps, 1.0 - tau)
    torch._foreach_add_(tgt_ps, src_ps, alpha=tau)


class ReplayBuffer:
    def __init__(self, obs_dim, act_dim, size=512):
        self.obs = torch.zeros(size, obs_dim)
        self.act = torch.zeros(size, act_dim)
        self.rew = torch.zeros(size, 1)
        self.next_obs = torch.zeros(size, obs_dim)
        self.ptr, self.full, self.size = 0, False, size

    def add(self, obs, act, rew, next_obs):
        n = obs.shape[0]
        idx = (torch.arange(n) + self.ptr) % self.size
        self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx] = obs, act, rew, next_obs
        self.ptr = (self.ptr + n) % self.size
        self.full = self.full or self.ptr < n

    def sample(self, batch):
        high = self.size if self.full else self.ptr
        idx = torch.randint(0, high, (batch,))
        return self.obs[idx], self.act[idx], self.rew[idx], self.next_obs[idx]
