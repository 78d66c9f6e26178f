import torch
import torch.nn as nn


class LatentWorldModel(nn.Module):
    """Deterministic latent dynamics + reward head (trained separately on replay)."""

    def __init__(self, z_dim=8, a_dim=2):
        super().__init__()
        self.dynamics = nn.Sequential(nn.Linear(z_dim + a_dim, 32), nn.ELU(), nn.Linear(32, z_dim))
        self.reward = nn.Sequential(nn.Linear(z_dim, 16), nn.ELU(), nn.Linear(16, 1))

    def step(self, z, a):
        return z + self.dynamics(torch.cat([z, a], -1))

    def imagine(self, policy, start, horizon):
        """Roll the actor forward in latent space; returns states and predicted rewards."""
        zs, rewards = [start], []
        with torch.no_grad():
            z = start
            for _ in range(horizon):
                a = policy(z).rsample()
                z = self.step(z, a)
                zs.append(z)
                rewards.append(self.reward(z).squeeze(-1))
        return torch.stack(zs), torch.stack(rewards)
