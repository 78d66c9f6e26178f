import torch
import torch.nn as nn


class ForcingTable:
    """Daily forcing (temperature) looked up by integration time."""

    def __init__(self, temps):
        self.temps = temps

    def at(self, t):
        idx = min(int(t), len(self.temps) - 1)
        return self.temps[idx]


class BucketDynamics(nn.Module):
    """Two-store (snow, water) bucket model whose fluxes come from small nets."""

    def __init__(self, forcing):
        super().__init__()
        self.forcing = forcing
        self.melt_net = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
        self.flow_net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, t, state):
        snow, water = state[0][0], state[0][1]
        temp = self.forcing.at(t)
        melt_in = torch.tensor([4 * snow, 4 * water, temp])
        melt = self.melt_net(melt_in).squeeze(-1)
        flow = self.flow_net(torch.stack([water, temp])).squeeze(-1)
        rate = torch.nn.functional.softplus(melt)
        d_snow = -rate * snow
        d_water = rate * snow - 0.1 * torch.nn.functional.softplus(flow) * water
        return torch.stack([d_snow, d_water]).unsqueeze(0)


class FixedBucketDynamics(BucketDynamics):
    def forward(self, t, state):
        snow, water = state[0][0], state[0][1]
        temp = self.forcing.at(t)
        melt = self.melt_net(torch.stack([4 * snow, 4 * water, temp])).squeeze(-1)
        flow = self.flow_net(torch.stack([water, temp])).squeeze(-1)
        rate = torch.nn.functional.softplus(melt)
        d_snow = -rate * snow
        d_water = rate * snow - 0.1 * torch.nn.functional.softplus(flow) * water
        return torch.stack([d_snow, d_water]).unsqueeze(0)
