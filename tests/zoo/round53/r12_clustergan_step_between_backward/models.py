"""Tiny ClusterGAN networks: generator G(zn, zc), encoder E(x) -> (zn, zc logits), discriminator D(x)."""
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, latent_dim=4, n_c=3, x_dim=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent_dim + n_c, 32), nn.LeakyReLU(0.2), nn.Linear(32, x_dim))

    def forward(self, zn, zc):
        return torch.tanh(self.net(torch.cat([zn, zc], dim=1)))


class Encoder(nn.Module):
    def __init__(self, latent_dim=4, n_c=3, x_dim=12):
        super().__init__()
        self.latent_dim = latent_dim
        self.net = nn.Sequential(nn.Linear(x_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, latent_dim + n_c))

    def forward(self, x):
        out = self.net(x)
        zn, zc_logits = out[:, : self.latent_dim], out[:, self.latent_dim :]
        return zn, zc_logits


class Discriminator(nn.Module):
    def __init__(self, x_dim=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


def sample_z(batch, latent_dim=4, n_c=3, generator=None):
    zn = 0.75 * torch.randn(batch, latent_dim, generator=generator)
    zc_idx = torch.randint(0, n_c, (batch,), generator=generator)
    zc = torch.nn.functional.one_hot(zc_idx, n_c).float()
    return zn, zc, zc_idx
