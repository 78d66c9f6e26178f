"""Bayes-by-backprop weight sampler and linear layer with a noise buffer redrawn per sample."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GaussianVariational(nn.Module):
    """Posterior q(w) = N(mu, log1p(exp(rho))^2), sampled by reparameterisation."""

    def __init__(self, mu, rho):
        super().__init__()
        self.mu = nn.Parameter(mu)
        self.rho = nn.Parameter(rho)
        self.register_buffer("eps_w", torch.empty_like(mu))
        self.sigma = None
        self.w = None

    def sample(self):
        self.eps_w.data.normal_()
        self.sigma = torch.log1p(torch.exp(self.rho))
        self.w = self.mu + self.sigma * self.eps_w
        return self.w


class BayesianLinear(nn.Module):
    def __init__(self, n_in, n_out, sampler_cls=GaussianVariational):
        super().__init__()
        self.weight_sampler = sampler_cls(torch.randn(n_out, n_in) * 0.2, torch.full((n_out, n_in), -2.0))
        self.bias = nn.Parameter(torch.zeros(n_out))

    def forward(self, x):
        return F.linear(x, self.weight_sampler.sample(), self.bias)
