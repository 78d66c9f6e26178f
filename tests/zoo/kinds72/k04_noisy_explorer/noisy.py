import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class NoisyLinear(nn.Module):
    """Linear layer with learnable, factorised Gaussian parameter noise for exploration."""

    def __init__(self, in_features, out_features, sigma0=0.5):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.sigma0 = sigma0
        self.weight_mu = nn.Parameter(torch.empty(out_features, in_features))
        self.weight_sigma = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        self.register_buffer("eps_in", torch.zeros(in_features))
        self.register_buffer("eps_out", torch.zeros(out_features))
        self.reset_parameters()
        self.resample()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.in_features)
        nn.init.uniform_(self.weight_mu, -bound, bound)
        nn.init.constant_(self.weight_sigma, self.sigma0 / math.sqrt(self.in_features))
        nn.init.uniform_(self.bias, -bound, bound)

    @staticmethod
    def _scaled(n):
        x = torch.randn(n)
        return x.sign() * x.abs().sqrt()

    def resample(self):
        self.eps_in.copy_(self._scaled(self.in_features))
        self.eps_out.copy_(self._scaled(self.out_features))

    def forward(self, x):
        eps = torch.outer(self.eps_out, self.eps_in)
        perturbation = (self.weight_sigma * eps).detach()
        return F.linear(x, self.weight_mu + perturbation, self.bias)
