"""Gaussian mixture energy for a DAGMM-style anomaly detector (mixture parameters fitted per batch)."""
import math

import torch
from torch import nn


class Mixture(nn.Module):
    def __init__(self, dim, rebuild_density=True, cut_update=True):
        super().__init__()
        self.rebuild_density = rebuild_density
        self.cut_update = cut_update
        self.Phi = nn.Parameter(torch.rand(1), requires_grad=False)
        self.mu = nn.Parameter(2.0 * torch.rand(dim) - 0.5, requires_grad=False)
        self.Sigma = nn.Parameter(torch.eye(dim), requires_grad=False)
        self.live = None

    def update_parameters(self, samples, affiliations):
        phi = affiliations.mean()
        mu = (affiliations[:, None] * samples).sum(0) / affiliations.sum()
        diff = samples - mu
        outer = diff[:, :, None] * diff[:, None, :]
        sigma = (affiliations[:, None, None] * outer).sum(0) / affiliations.sum()
        sigma = sigma + 1e-3 * torch.eye(samples.shape[1])
        if self.cut_update:
            self.Phi.data = phi.data
            self.mu.data = mu.data
            self.Sigma.data = sigma.data
        else:
            self.live = (phi, mu, sigma)

    def forward(self, samples):
        phi, mu, sigma = (self.Phi, self.mu, self.Sigma) if self.cut_update else self.live
        diff = samples - mu
        maha = (diff @ torch.inverse(sigma) * diff).sum(1)
        density = phi * torch.exp(-0.5 * maha) / torch.sqrt(torch.det(2 * math.pi * sigma))
        if self.rebuild_density:
            values = [float(d) for d in density]
            return torch.tensor(values)
        return density


class GMM(nn.Module):
    def __init__(self, num_mixtures, dim, **flags):
        super().__init__()
        self.mixtures = nn.ModuleList(Mixture(dim, **flags) for _ in range(num_mixtures))

    def update(self, samples, gamma):
        for k, mixture in enumerate(self.mixtures):
            mixture.update_parameters(samples, gamma[:, k])

    def forward(self, samples):
        total = sum(mixture(samples) for mixture in self.mixtures)
        return -torch.log(total + 1e-12)
