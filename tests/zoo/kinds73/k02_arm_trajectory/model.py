import torch
import torch.nn as nn


class TrajectoryPlanner(nn.Module):
    """Maps a start pose and a goal pose to a short joint-angle trajectory."""

    def __init__(self, n_joints=6, horizon=8, hidden=64):
        super().__init__()
        self.n_joints, self.horizon = n_joints, horizon
        self.net = nn.Sequential(
            nn.Linear(2 * n_joints, hidden), nn.Tanh(),
            nn.Linear(hidden, horizon * n_joints),
        )

    def forward(self, start, goal):
        out = self.net(torch.cat([start, goal], dim=-1))
        return out.view(-1, self.horizon, self.n_joints)
