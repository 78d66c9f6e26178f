"""Gradient-step denoiser: D(x) = x - grad g(x), with g a small learned potential."""
import torch
import torch.nn as nn


class GradientStepDenoiser(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.potential_net = nn.Sequential(nn.Linear(dim, 32), nn.Tanh(), nn.Linear(32, dim))
        for p in self.parameters():
            p.requires_grad_(False)

    def potential_grad(self, x):
        torch.set_grad_enabled(True)
        x = x.detach().requires_grad_()
        g = 0.5 * (self.potential_net(x) ** 2).sum()
        grad = torch.autograd.grad(g, x)[0]
        torch.set_grad_enabled(False)
        return grad

    def forward(self, x, sigma):
        return x - sigma * self.potential_grad(x)
