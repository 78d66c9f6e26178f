"""World model, actor and value networks for a tiny latent-imagination agent."""
import torch
import torch.nn as nn


class WorldModel(nn.Module):
    def __init__(self, obs_dim=6, act_dim=2, latent=8, hidden=12):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ELU(), nn.Linear(hidden, latent))
        self.transition = nn.Sequential(nn.Linear(latent + act_dim, hidden), nn.ELU(), nn.Linear(hidden, latent))
        self.decoder = nn.Linear(latent, obs_dim)
        self.reward_head = nn.Sequential(nn.Linear(latent, hidden), nn.ELU(), nn.Linear(hidden, 1))

    def step(self, z, a):
        return self.transition(torch.cat([z, a], dim=-1))


class Actor(nn.Module):
    def __init__(self, latent=8, act_dim=2):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent, 16), nn.ELU(), nn.Linear(16, act_dim), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class ValueModel(nn.Module):
    def __init__(self, latent=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent, 16), nn.ELU(), nn.Linear(16, 1))

    def forward(self, z):
        return self.net(z)


class FreezeParameters:
    """Turns requires_grad off for some modules while the actor imagines through them."""

    def __init__(self, modules):
        self.params = [p for m in modules for p in m.parameters()]

    def __enter__(self):
        self.old = [p.requires_grad for p in self.params]
        for p in self.params:
            p.requires_grad_(False)

    def __exit__(self, *exc):
        for p, flag in zip(self.params, self.old):
            p.requires_grad_(flag)
