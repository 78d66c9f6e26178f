"""Physics-informed network for the 1-D steady heat equation  -k u''(x) = f(x),  u(0)=u(1)=0."""
import math

import torch
import torch.nn as nn


class HeatPINN(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1)
        )

    def forward(self, x):
        # hard boundary conditions
        return x * (1 - x) * self.net(x)


def source(x, k=1.0):
    return k * (math.pi ** 2) * torch.sin(math.pi * x)


class HeatResidual:
    """Mean squared PDE residual on a set of collocation points."""

    def __init__(self, n_points=64, k=1.0, seed=0):
        g = torch.Generator().manual_seed(seed)
        self.points = torch.rand(n_points, 1, generator=g)
        self.k = k

    def residual(self, model, points=None):
        x = (self.points if points is None else points).clone().requires_grad_(True)
        u = model(x)
        du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
        d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
        return (-self.k * d2u - source(x, self.k)).pow(2).mean()

    def validation_residual(self, model):
        return self.residual(model, torch.linspace(0.01, 0.99, 50).unsqueeze(1))
