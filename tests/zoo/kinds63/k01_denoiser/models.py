import math

import torch
import torch.nn as nn

__all__ = ["NoisePredictor", "timestep_embedding"]


def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
    args = t.float()[:, None] * freqs[None]
    return torch.cat([torch.sin(args), torch.cos(args)], dim=-1)


class NoisePredictor(nn.Module):
    """Small MLP epsilon-predictor for 1-D signals (DDPM style)."""

    def __init__(self, signal_len=32, width=128, t_dim=32):
        super().__init__()
        self.t_dim = t_dim
        self.in_proj = nn.Linear(signal_len, width)
        self.t_proj = nn.Sequential(nn.Linear(t_dim, width), nn.SiLU(), nn.Linear(width, width))
        self.block1 = nn.Sequential(nn.SiLU(), nn.Linear(width, width))
        self.bottleneck = nn.Linear(width, width)
        self.block2 = nn.Sequential(nn.SiLU(), nn.Linear(width, width))
        self.out_proj = nn.Sequential(nn.SiLU(), nn.Linear(width, signal_len))

    def forward(self, x_t, t):
        temb = self.t_proj(timestep_embedding(t, self.t_dim))
        h = self.in_proj(x_t) + temb
        h = self.block1(h)
        with torch.no_grad():
            h = self.bottleneck(h)
        h = self.block2(h) + temb
        return self.out_proj(h)
