"""Small flow library used by main.py (affine flows + a NormalizingFlow wrapper)."""
import math

import torch
import torch.nn as nn


def set_requires_grad(module, flag):
    for p in module.parameters():
        p.requires_grad = flag


class DiagGaussian(nn.Module):
    """Trainable diagonal Gaussian base distribution q0."""

    def __init__(self, dim):
        super().__init__()
        self.dim = dim
        self.loc = nn.Parameter(torch.zeros(1, dim))
        self.log_scale = nn.Parameter(torch.zeros(1, dim))

    def forward(self, num_samples):
        eps = torch.randn(num_samples, self.dim)
        z = self.loc + torch.exp(self.log_scale) * eps
        log_q = self.log_prob(z)
        return z, log_q

    def log_prob(self, z):
        norm = (z - self.loc) / torch.exp(self.log_scale)
        return (-0.5 * self.dim * math.log(2 * math.pi)
                - torch.sum(self.log_scale + 0.5 * norm ** 2, dim=1))


class AffineLayer(nn.Module):
    """z -> z * exp(s) + t, elementwise, invertible."""

    def __init__(self, dim):
        super().__init__()
        self.s = nn.Parameter(0.1 * torch.randn(1, dim))
        self.t = nn.Parameter(0.1 * torch.randn(1, dim))

    def forward(self, z):
        out = z * torch.exp(self.s) + self.t
        log_det = torch.sum(self.s, dim=1).expand(z.shape[0])
        return out, log_det

    def inverse(self, x):
        z = (x - self.t) * torch.exp(-self.s)
        log_det = -torch.sum(self.s, dim=1).expand(x.shape[0])
        return z, log_det


class GaussianTarget:
    def __init__(self, mean, std):
        self.mean = mean
        self.std = std

    def log_prob(self, x):
        norm = (x - self.mean) / self.std
        return (-0.5 * x.shape[1] * math.log(2 * math.pi)
                - torch.sum(torch.log(self.std) + 0.5 * norm ** 2, dim=1))


class NormalizingFlow(nn.Module):
    def __init__(self, q0, flows, p):
        super().__init__()
        self.q0 = q0
        self.flows = nn.ModuleList(flows)
        self.p = p

    def log_prob(self, x):
        log_q = torch.zeros(len(x))
        z = x
        for i in range(len(self.flows) - 1, -1, -1):
            z, log_det = self.flows[i].inverse(z)
            log_q = log_q + log_det
        return log_q + self.q0.log_prob(z)

    def reverse_kld(self, num_samples=1, score_fn=True):
        """Reverse KL estimate. With score_fn=False the density of the sample is
        re-evaluated with the parameters frozen ("sticking the landing"): the
        gradient then only flows through the sample path z(theta)."""
        z, log_q0 = self.q0(num_samples)
        log_q = log_q0
        for flow in self.flows:
            z, log_det = flow(z)
            log_q = log_q - log_det
        if not score_fn:
            z_ = z
            log_q = torch.zeros(len(z_))
            set_requires_grad(self, False)
            for i in range(len(self.flows) - 1, -1, -1):
                z_, log_det = self.flows[i].inverse(z_)
                log_q = log_q + log_det
            log_q = log_q + self.q0.log_prob(z_)
            set_requires_grad(self, True)
        log_p = self.p.log_prob(z)
        return torch.mean(log_q) - torch.mean(log_p)

    def reverse_alpha_div_dreg(self, num_samples=1, alpha=0.5):
        """Doubly reparameterised alpha-divergence: the importance weights are an
        intended constant (w.detach()), the score term is removed by freezing the
        parameters while q is re-evaluated on the sample."""
        z, log_q0 = self.q0(num_samples)
        log_q = log_q0
        for flow in self.flows:
            z, log_det = flow(z)
            log_q = log_q - log_det
        log_p = self.p.log_prob(z)
        w_const = torch.exp(log_p - log_q).detach()
        z_ = z
        log_q = torch.zeros(len(z_))
        set_requires_grad(self, False)
        for i in range(len(self.flows) - 1, -1, -1):
            z_, log_det = self.flows[i].inverse(z_)
            log_q = log_q + log_det
        log_q = log_q + self.q0.log_prob(z_)
        set_requires_grad(self, True)
        w = torch.exp(log_p - log_q)
        w_alpha = w_const ** alpha
        w_alpha = w_alpha / torch.mean(w_alpha)
        weights = (1 - alpha) * w_alpha + alpha * w_alpha ** 2
        return -alpha * torch.mean(weights * torch.log(w))
