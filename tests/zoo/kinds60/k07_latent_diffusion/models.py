import math

import torch
import torch.nn as nn


class VAE(nn.Module):
    def __init__(self, data_dim=32, latent_dim=4, hidden=128):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(data_dim, hidden), nn.SiLU(), nn.Linear(hidden, 2 * latent_dim))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, hidden), nn.SiLU(), nn.Linear(hidden, data_dim))

    def encode(self, x):
        mu, logvar = self.encoder(x).chunk(2, dim=-1)
        return mu, logvar

    def decode(self, z):
        return self.decoder(z)

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.decode(z), mu, logvar


def timestep_embedding(t, dim=16):
    half = dim // 2
    freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([args.sin(), args.cos()], dim=-1)


class Denoiser(nn.Module):
    def __init__(self, latent_dim=4, hidden=128, t_dim=16):
        super().__init__()
        self.t_dim = t_dim
        self.net = nn.Sequential(nn.Linear(latent_dim + t_dim, hidden), nn.SiLU(),
                                 nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, latent_dim))

    def forward(self, z_t, t):
        return self.net(torch.cat([z_t, timestep_embedding(t, self.t_dim)], dim=-1))
