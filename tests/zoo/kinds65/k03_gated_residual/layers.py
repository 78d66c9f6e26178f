import torch
import torch.nn as nn


class GatedResidualBlock(nn.Module):
    """Gated feature block with an optional scaled skip, as used in the tabular model."""

    def __init__(self, dim, skip_scale=None, fixed=False):
        super().__init__()
        self.lin = nn.Linear(dim, dim)
        self.gate = nn.Linear(dim, dim)
        self.bias = nn.Parameter(torch.zeros(dim))
        self.skip_scale = skip_scale
        self.fixed = fixed

    def forward(self, x):
        support = torch.tanh(self.lin(x))
        gate = torch.sigmoid(self.gate(x))
        mixed = gate * support
        if self.skip_scale is not None:
            r = support * self.skip_scale
        else:
            r = support
        if self.fixed:
            r = r + self.bias
        else:
            r += self.bias
        return mixed + r
