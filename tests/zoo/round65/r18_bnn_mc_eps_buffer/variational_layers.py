"""Mean-field Gaussian (Bayes by Backprop) linear layer with reparameterization."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearReparameterization(nn.Module):
    def __init__(self, in_features, out_features, prior_sigma=1.0, posterior_rho_init=-3.0,
                 fresh_noise=False):
        super().__init__()
        self.mu_weight = nn.Parameter(torch.empty(out_features, in_features).normal_(0, 0.1))
        self.rho_weight = nn.Parameter(torch.full((out_features, in_features), posterior_rho_init))
        self.mu_bias = nn.Parameter(torch.zeros(out_features))
        self.rho_bias = nn.Parameter(torch.full((out_features,), posterior_rho_init))
        self.register_buffer("eps_weight", torch.zeros(out_features, in_features))
        self.register_buffer("eps_bias", torch.zeros(out_features))
        self.prior_sigma = prior_sigma
        self.fresh_noise = fresh_noise
        self.last_eps = None

    def kl_div(self, mu, sigma):
        return (torch.log(self.prior_sigma / sigma) + (sigma ** 2 + mu ** 2) / (2 * self.prior_sigma ** 2) - 0.5).sum()

    def forward(self, x):
        sigma_weight = torch.log1p(torch.exp(self.rho_weight))
        if self.fresh_noise:
            eps_weight = torch.randn_like(sigma_weight)
        else:
            eps_weight = self.eps_weight.data.normal_()
        self.last_eps = eps_weight.clone()
        weight = self.mu_weight + sigma_weight * eps_weight
        sigma_bias = torch.log1p(torch.exp(self.rho_bias))
        eps_bias = torch.randn_like(sigma_bias)
        self.last_eps_bias = eps_bias
        bias = self.mu_bias + sigma_bias * eps_bias
        kl = self.kl_div(self.mu_weight, sigma_weight) + self.kl_div(self.mu_bias, sigma_bias)
        return F.linear(x, weight, bias), kl
