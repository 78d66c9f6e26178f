import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearReparameterization(nn.Module):
    """Mean-field Gaussian linear layer, weights sampled with the reparameterisation trick."""

    def __init__(self, in_features, out_features, prior_sigma=1.0, fresh_noise=False):
        super().__init__()
        self.mu_weight = nn.Parameter(torch.randn(out_features, in_features) * 0.1)
        self.rho_weight = nn.Parameter(torch.full((out_features, in_features), -3.0))
        self.mu_bias = nn.Parameter(torch.zeros(out_features))
        self.rho_bias = nn.Parameter(torch.full((out_features,), -3.0))
        self.register_buffer("eps_weight", torch.zeros(out_features, in_features))
        self.register_buffer("eps_bias", torch.zeros(out_features))
        self.prior_sigma = prior_sigma
        self.fresh_noise = fresh_noise

    def kl_div(self, mu, sigma):
        return (torch.log(self.prior_sigma / sigma)
                + (sigma ** 2 + mu ** 2) / (2 * self.prior_sigma ** 2) - 0.5).sum()

    def forward(self, x):
        sigma_weight = torch.log1p(torch.exp(self.rho_weight))
        sigma_bias = torch.log1p(torch.exp(self.rho_bias))
        if self.fresh_noise:
            eps_w = torch.randn_like(self.eps_weight)
            eps_b = torch.randn_like(self.eps_bias)
        else:
            eps_w = self.eps_weight.data.normal_()
            eps_b = self.eps_bias.data.normal_()
        weight = self.mu_weight + sigma_weight * eps_w
        bias = self.mu_bias + sigma_bias * eps_b
        kl = self.kl_div(self.mu_weight, sigma_weight) + self.kl_div(self.mu_bias, sigma_bias)
        return F.linear(x, weight, bias), kl
