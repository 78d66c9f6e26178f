"""Latent-conditioned SDF decoder and a non-differentiable iso-surface extraction (numpy vertices)."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class SDFDecoder(nn.Module):
    """sdf(x | z) = |x| - r(z): a latent code decides the radius of a sphere-like shape."""

    def __init__(self, latent_size=4, hidden=16):
        super().__init__()
        self.radius = nn.Sequential(nn.Linear(latent_size, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, latent_inputs, xyz):
        return xyz.norm(dim=-1, keepdim=True) - F.softplus(self.radius(latent_inputs)) - 0.1


def ray_directions(n=64):
    i = np.arange(n) + 0.5
    phi, theta = np.arccos(1 - 2 * i / n), np.pi * (1 + 5 ** 0.5) * i
    return np.stack([np.cos(theta) * np.sin(phi), np.sin(theta) * np.sin(phi), np.cos(phi)], 1)


def create_mesh(decoder, latent, dirs, t_max=4.0, iters=40):
    """Find the zero crossing of the SDF along fixed rays (bisection), like marching cubes
    this step is not differentiable and hands back plain numpy vertices."""
    lo, hi = np.zeros(len(dirs)), np.full(len(dirs), t_max)
    with torch.no_grad():
        for _ in range(iters):
            mid = (lo + hi) / 2
            pts = torch.tensor(mid[:, None] * dirs, dtype=torch.float32)
            s = decoder(latent.expand(len(dirs), -1), pts).squeeze(-1).numpy()
            lo, hi = np.where(s < 0, mid, lo), np.where(s < 0, hi, mid)
    return ((lo + hi) / 2)[:, None] * dirs
