"""Sine-circle-map reservoir: trainable per-node map parameters, fixed small-world coupling, state passed in and out."""
import math

import torch
import torch.nn as nn


def tensor_scm(thetas, alphas, ks, omegas):
    return torch.mul(alphas.clone(), thetas.clone()) + omegas.clone() + \
        torch.mul(ks.clone() / (2.0 * math.pi), torch.sin(2.0 * math.pi * thetas.clone()))


class SCMNet(nn.Module):
    def __init__(self, input_size, output_size, reservoir_size):
        super().__init__()
        g = torch.Generator().manual_seed(1)
        self.register_buffer("driver", (torch.rand(input_size, reservoir_size, generator=g) > 0.5).float())
        self.register_buffer("mask", (torch.rand(reservoir_size, output_size, generator=g) > 0.5).float())
        coupling = (torch.rand(reservoir_size, reservoir_size, generator=g) > 0.6).float()
        self.register_buffer("coupling", coupling / coupling.sum(0, keepdim=True).clamp(min=1))
        self.alphas = nn.Parameter(torch.rand(reservoir_size))
        self.ks = nn.Parameter(torch.rand(reservoir_size))
        self.omegas = nn.Parameter(torch.rand(reservoir_size))

    def forward(self, x, reservoir_state):
        driven = reservoir_state + torch.matmul(x, self.driver)
        driven = (driven - driven.min().item()) / (driven.max().item() - driven.min().item() + 1e-6)
        thetas = tensor_scm(torch.matmul(driven, self.coupling), self.alphas, self.ks, self.omegas)
        return torch.matmul(thetas.clone(), self.mask), thetas.clone()
