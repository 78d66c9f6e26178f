"""Latent-to-fingerprint decoder of a molecular VAE (decoder half only)."""
import torch
import torch.nn as nn


class FingerprintDecoder(nn.Module):
    def __init__(self, latent=8, fp_dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent, 32), nn.ReLU(), nn.Linear(32, fp_dim))

    def forward(self, z):
        return torch.sigmoid(self.net(z))
