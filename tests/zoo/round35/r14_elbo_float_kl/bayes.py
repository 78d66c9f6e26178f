import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class BayesLinear(nn.Module):
    """Mean-field Gaussian weights, reparameterised sampling."""

    def __init__(self, n_in, n_out, prior_sigma=1.0):
        super().__init__()
        self.mu = nn.Parameter(0.1 * torch.randn(n_out, n_in))
        self.rho = nn.Parameter(torch.full((n_out, n_in), -3.0))
        self.prior_sigma = prior_sigma

    def sigma(self):
        return F.softplus(self.rho)

    def forward(self, x):
        w = self.mu + self.sigma() * torch.randn_like(self.mu)
        return x @ w.t()

    def divergence(self):
        s = self.sigma()
        p = self.prior_sigma
        return (math.log(p) - s.log() + (s ** 2 + self.mu ** 2) / (2 * p * p) - 0.5).sum()


class EvidenceLowerBound(nn.Module):
    """Negative ELBO with a typed interface: the KL must be a positive float."""

    def __init__(self, train_size):
        super().__init__()
        self.train_size = train_size
        self.nll = nn.NLLLoss()

    def forward(self, log_probs, target, kl, kl_weight):
        if not isinstance(kl, float) or kl <= 0:
            raise TypeError("kl must be a positive float")
        return self.nll(log_probs, target) * self.train_size + kl_weight * kl
