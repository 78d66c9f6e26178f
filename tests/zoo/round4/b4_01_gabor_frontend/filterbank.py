import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GaborLimits(nn.Module):
    """Projects (centre, width) pairs back into the range a Gabor filter makes sense in."""

    def __init__(self, kernel_len):
        super().__init__()
        self.kernel_len = kernel_len

    def forward(self, params):
        lo_mu, hi_mu = 0.0, math.pi
        lo_sig = 4.0 * math.sqrt(2.0 * math.log(2.0)) / math.pi
        hi_sig = self.kernel_len * math.sqrt(2.0 * math.log(2.0)) / math.pi
        with torch.no_grad():
            centre = params[:, 0].clamp(lo_mu, hi_mu)
            width = params[:, 1].clamp(lo_sig, hi_sig)
        return torch.stack([centre, width], dim=1)


class GaborConv1d(nn.Module):
    """Complex Gabor filterbank whose centre frequencies and widths are learned."""

    def __init__(self, n_filters, kernel_len):
        super().__init__()
        self.kernel_len = kernel_len
        centre = torch.linspace(0.2, 2.5, n_filters)
        width = torch.full((n_filters,), 6.0)
        self.gabor_params = nn.Parameter(torch.stack([centre, width], dim=1))
        self.limits = GaborLimits(kernel_len)

    def kernels(self):
        p = self.limits(self.gabor_params)
        centre, width = p[:, 0:1], p[:, 1:2]
        half = self.kernel_len // 2
        t = torch.arange(-half, half + 1, dtype=torch.float32)
        envelope = torch.exp(-0.5 * (t / width) ** 2) / (math.sqrt(2 * math.pi) * width)
        real = envelope * torch.cos(centre * t)
        imag = envelope * torch.sin(centre * t)
        return torch.cat([real, imag], dim=0).unsqueeze(1)

    def forward(self, wav):
        out = F.conv1d(wav, self.kernels(), padding=self.kernel_len // 2)
        n = out.shape[1] // 2
        return out[:, :n] ** 2 + out[:, n:] ** 2
