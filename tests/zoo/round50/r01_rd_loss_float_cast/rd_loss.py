"""Rate-distortion objective for a learned image codec (rate term summed as Python floats)."""
import math

import torch
from torch import nn


class RateMSEDistortionLoss(nn.Module):
    """lambda * 255^2 * MSE + bits-per-pixel, as in a hyperprior codec's training loop."""

    def __init__(self, trade_off=0.01, maximum=1.0):
        super().__init__()
        self.trade_off = trade_off
        self.maximum = maximum
        self.mse = nn.MSELoss()

    def forward(self, x_hat, likelihoods, x):
        n, _, h, w = x.shape
        pixels = -math.log(2) * (n * h * w)
        bpps = []
        for probability in likelihoods:
            bpps.append(float(torch.log(probability).sum() / pixels))
        rate = torch.tensor(sum(bpps), device=x.device)
        distortion = self.mse(x_hat, x)
        total = self.trade_off * self.maximum ** 2 * distortion + rate
        return rate, distortion, total


class RateMSEDistortionLossKept(RateMSEDistortionLoss):
    """Same objective with every step kept inside autograd."""

    def forward(self, x_hat, likelihoods, x):
        n, _, h, w = x.shape
        factor = -math.log(2) * (n * h * w)
        rate = torch.stack([torch.log(p).sum() for p in likelihoods]).sum() / factor
        distortion = self.mse(x_hat, x)
        total = self.trade_off * self.maximum ** 2 * distortion + rate
        return rate, distortion, total
