"""Channel-wise L2 normalisation with a learned per-channel scale (SSD conv4_3 style)."""
import torch
import torch.nn as nn


class L2Norm(nn.Module):
    def __init__(self, n_channels, scale=20.0):
        super().__init__()
        self.eps = 1e-10
        self.weight = nn.Parameter(torch.full((n_channels,), float(scale)))

    def forward(self, x):
        norm = x.pow(2).sum(dim=1, keepdim=True).sqrt() + self.eps
        x /= norm
        return self.weight.view(1, -1, 1, 1) * x


class L2NormOutOfPlace(L2Norm):
    def forward(self, x):
        norm = x.pow(2).sum(dim=1, keepdim=True).sqrt() + self.eps
        x = x / norm
        return self.weight.view(1, -1, 1, 1) * x
