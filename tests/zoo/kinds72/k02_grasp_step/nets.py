import torch
import torch.nn as nn


class TactileEncoder(nn.Module):
    """Encodes a flattened fingertip taxel reading plus gripper joint state."""

    def __init__(self, n_taxels=24, n_joints=4, hidden=48, latent=16):
        super().__init__()
        self.fc1 = nn.Linear(n_taxels + n_joints, hidden)
        self.fc2 = nn.Linear(hidden, latent)

    def forward(self, taxels, joints):
        h = torch.relu(self.fc1(torch.cat([taxels, joints], dim=-1)))
        return torch.tanh(self.fc2(h))


class GraspQualityHead(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.out = nn.Linear(latent, 1)

    def forward(self, z):
        return self.out(z).squeeze(-1)


class SlipHead(nn.Module):
    def __init__(self, latent=16):
        super().__init__()
        self.out = nn.Linear(latent, 1)

    def forward(self, z):
        return self.out(z).squeeze(-1)
