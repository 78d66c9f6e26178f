"""Encoder, decoder and feature-returning discriminator for a tiny VAE-GAN on flat 64-d inputs."""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, x_dim=64, z_dim=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(x_dim, 32), nn.ReLU())
        self.mean = nn.Linear(32, z_dim)
        self.logvar = nn.Linear(32, z_dim)

    def forward(self, x):
        h = self.body(x)
        return self.mean(h), self.logvar(h)


class Decoder(nn.Module):
    def __init__(self, x_dim=64, z_dim=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, x_dim), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Generator(nn.Module):
    def __init__(self, x_dim=64, z_dim=4):
        super().__init__()
        self.encoder = Encoder(x_dim, z_dim)
        self.decoder = Decoder(x_dim, z_dim)

    def forward(self, x):
        mean, logvar = self.encoder(x)
        std = logvar.mul(0.5).exp_()
        z = mean + std * torch.randn_like(std)
        return mean, logvar, self.decoder(z)


class Discriminator(nn.Module):
    def __init__(self, x_dim=64):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(x_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 16), nn.LeakyReLU(0.2))
        self.head = nn.Sequential(nn.Linear(16, 1), nn.Sigmoid())

    def forward(self, x):
        f = self.features(x)
        return self.head(f), f
