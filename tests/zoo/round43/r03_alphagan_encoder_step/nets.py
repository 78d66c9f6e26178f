"""Encoder, generator, image discriminator and code discriminator for a small alpha-GAN on flat vectors."""
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, x_dim=32, z_dim=6):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(x_dim, 48), nn.LeakyReLU(0.1))
        self.mean = nn.Linear(48, z_dim)
        self.logvar = nn.Linear(48, z_dim)

    def forward(self, x):
        h = self.body(x)
        return self.mean(h), self.logvar(h)


class Generator(nn.Module):
    def __init__(self, x_dim=32, z_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 48), nn.ReLU(), nn.Linear(48, x_dim), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, x_dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim, 48), nn.LeakyReLU(0.1), nn.Linear(48, 1), nn.Sigmoid())

    def forward(self, x):
        return self.net(x).squeeze(1)


class Codecriminator(nn.Module):
    def __init__(self, z_dim=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 24), nn.LeakyReLU(0.1), nn.Linear(24, 1), nn.Sigmoid())

    def forward(self, z):
        return self.net(z).squeeze(1)
