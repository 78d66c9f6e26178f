import math

import torch
import torch.nn as nn


class BayesLinear(nn.Module):
    """Mean-field Gaussian linear layer (weights re-sampled at every call)."""

    def __init__(self, prior_mu, prior_sigma, in_features, out_features):
        super().__init__()
        self.prior_mu = prior_mu
        self.prior_log_sigma = math.log(prior_sigma)
        self.weight_mu = nn.Parameter(torch.randn(out_features, in_features) * 0.1)
        self.weight_log_sigma = nn.Parameter(torch.full((out_features, in_features), -3.0))
        self.bias_mu = nn.Parameter(torch.zeros(out_features))
        self.bias_log_sigma = nn.Parameter(torch.full((out_features,), -3.0))

    def forward(self, x):
        w = self.weight_mu + torch.exp(self.weight_log_sigma) * torch.randn_like(self.weight_mu)
        b = self.bias_mu + torch.exp(self.bias_log_sigma) * torch.randn_like(self.bias_mu)
        return x @ w.t() + b


def _kl_gauss(mu, log_sigma, prior_mu, prior_log_sigma):
    kl = (prior_log_sigma - log_sigma
          + (torch.exp(log_sigma) ** 2 + (mu - prior_mu) ** 2) / (2 * math.exp(prior_log_sigma) ** 2)
          - 0.5)
    return kl.sum(), kl.numel()


class BKLLoss(nn.Module):
    """KL(q || prior) averaged over every Bayesian weight of a model."""

    def forward(self, model):
        total, count = 0.0, 0
        for m in model.modules():
            if isinstance(m, BayesLinear):
                for mu, ls in ((m.weight_mu, m.weight_log_sigma), (m.bias_mu, m.bias_log_sigma)):
                    s, n = _kl_gauss(mu, ls, m.prior_mu, m.prior_log_sigma)
                    total = total + s
                    count += n
        return total / count
