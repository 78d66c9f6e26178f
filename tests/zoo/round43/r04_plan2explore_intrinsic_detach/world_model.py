"""Tiny RSSM, one-step ensemble members, actor and critic for a Plan2Explore-style imagination step."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal

STOCH, DETER, ACT, EMBED = 4, 8, 2, 6


class RSSM(nn.Module):
    def __init__(self):
        super().__init__()
        self.cell = nn.GRUCell(STOCH + ACT, DETER)
        self.prior = nn.Linear(DETER, 2 * STOCH)

    def recurrent_model(self, state, action, deterministic):
        return self.cell(torch.cat([state, action], -1), deterministic)

    def transition_model(self, deterministic):
        mean, raw_std = self.prior(deterministic).chunk(2, -1)
        dist = Normal(mean, F.softplus(raw_std) + 0.1)
        return dist, dist.rsample()


class OneStepModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(ACT + STOCH + DETER, 32), nn.ELU(), nn.Linear(32, EMBED))

    def forward(self, action, prior, deterministic):
        return Normal(self.net(torch.cat([action, prior, deterministic], -1)), 1.0)


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STOCH + DETER, 32), nn.ELU(), nn.Linear(32, ACT))
        self.intrinsic = True

    def forward(self, state, deterministic):
        return torch.tanh(self.net(torch.cat([state, deterministic], -1)))


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(STOCH + DETER, 32), nn.ELU(), nn.Linear(32, 1))

    def forward(self, state, deterministic):
        return Normal(self.net(torch.cat([state, deterministic], -1)), 1.0)
