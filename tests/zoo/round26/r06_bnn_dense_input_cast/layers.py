"""Bayesian dense layer with a Normal variational posterior over its weights."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BayesDense(nn.Module):
    def __init__(self, d_in, d_out, activation=True):
        super().__init__()
        self.w_loc = nn.Parameter(torch.randn(d_in, d_out) * 0.3)
        self.w_scale = nn.Parameter(torch.full((d_in, d_out), -3.0))
        self.b_loc = nn.Parameter(torch.zeros(d_out))
        self.activation = activation

    def kl(self):
        scale = F.softplus(self.w_scale)
        return (0.5 * (scale ** 2 + self.w_loc ** 2) - torch.log(scale) - 0.5).sum()

    def forward(self, x):
        x = torch.tensor(x, dtype=torch.float32)   # accept numpy arrays as well as tensors
        w = self.w_loc + F.softplus(self.w_scale) * torch.randn_like(self.w_loc)
        out = x @ w + self.b_loc
        return F.relu(out) if self.activation else out


class DenseNetwork(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.layers = nn.ModuleList(
            BayesDense(a, b, activation=(i < len(dims) - 2))
            for i, (a, b) in enumerate(zip(dims[:-1], dims[1:])))

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def kl(self):
        return sum(layer.kl() for layer in self.layers)
