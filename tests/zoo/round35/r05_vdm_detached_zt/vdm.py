import torch
import torch.nn as nn
import torch.nn.functional as F


class LearnedSNR(nn.Module):
    """gamma(t) = -log SNR(t), monotone in t through a positive slope."""

    def __init__(self):
        super().__init__()
        self.gamma_min = nn.Parameter(torch.tensor(-5.0))
        self.raw_slope = nn.Parameter(torch.tensor(2.5))

    def forward(self, t):
        return self.gamma_min + F.softplus(self.raw_slope) * 4.0 * t


class Denoiser(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, 64), nn.SiLU(), nn.Linear(64, dim))

    def forward(self, z, norm_nlogsnr):
        return self.net(torch.cat([z, norm_nlogsnr], -1))


class VariationalDiffusion(nn.Module):
    def __init__(self, dim, n_steps=50):
        super().__init__()
        self.snr = LearnedSNR()
        self.denoiser = Denoiser(dim)
        self.n_steps = n_steps

    def diffusion_loss(self, x):
        b = x.shape[0]
        i = torch.randint(1, self.n_steps + 1, (b, 1))
        t, s = i / self.n_steps, (i - 1) / self.n_steps
        gamma_t, gamma_s = self.snr(t), self.snr(s)
        alpha_t, sigma_t = torch.sigmoid(-gamma_t).sqrt(), torch.sigmoid(gamma_t).sqrt()
        eps = torch.randn_like(x)
        z_t = alpha_t * x + sigma_t * eps
        # stop-gradient on the sample: the schedule is learned through the
        # conditioning input and the SNR weighting only (more stable)
        norm_nlogsnr_t = (gamma_t + 5.0) / 10.0
        eps_hat = self.denoiser(z_t.detach(), norm_nlogsnr_t)
        weight = self.n_steps * torch.expm1(gamma_t - gamma_s)
        return 0.5 * (weight * (eps - eps_hat).pow(2).sum(-1, keepdim=True)).mean()
