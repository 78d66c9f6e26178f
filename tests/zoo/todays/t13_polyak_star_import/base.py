import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class QFunction(nn.Module):
    def __init__(self, obs_dim=3, act_dim=1, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, obs, act):
        return self.body(torch.cat([obs, act], dim=-1))


class Policy(nn.Module):
    def __init__(self, obs_dim=3, act_dim=1, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU(), nn.Linear(hidden, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.body(obs)


class AgentBase:
    """Holds the online and target networks; subclasses implement learning."""

    def __init__(self, gamma=0.95, mix=0.05):
        self.gamma = gamma
        self.mix = mix
        self.actor = Policy()
        self.critic = QFunction()
        self.actor_tgt = copy.deepcopy(self.actor)
        self.critic_tgt = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

    def sample_batch(self, n=16):
        obs = torch.randn(n, 3)
        act = torch.rand(n, 1) * 2 - 1
        rew = -(obs[:, :1] - act).pow(2)
        nxt = obs + 0.1 * torch.randn(n, 3)
        return obs, act, rew, nxt
