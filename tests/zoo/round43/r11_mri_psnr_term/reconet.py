"""Reconstruction net for undersampled k-space plus its MSE+PSNR loss (the PSNR term is rebuilt from a float)."""
import math

import torch
import torch.nn as nn


def kspace_to_image(kspace):
    # kspace: (B, H, W, 2) real/imag parts -> magnitude image (B, 1, H, W)
    spectrum = torch.complex(kspace[..., 0], kspace[..., 1])
    return torch.fft.ifft2(spectrum).abs().unsqueeze(1)


class LearnedSubsampling(nn.Module):
    def __init__(self, h, w):
        super().__init__()
        self.scores = nn.Parameter(0.1 * torch.randn(h, w))

    def forward(self, kspace):
        keep = torch.sigmoid(self.scores)[None, :, :, None]
        return kspace_to_image(kspace * keep)


class ReconNet(nn.Module):
    def __init__(self, h=16, w=16, width=8):
        super().__init__()
        self.subsample = LearnedSubsampling(h, w)
        self.refine = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv2d(width, 1, 3, padding=1),
        )

    def forward(self, kspace):
        coarse = self.subsample(kspace)
        return coarse + self.refine(coarse), coarse


def pixel_mse(pred, target_kspace):
    target = kspace_to_image(target_kspace)
    return torch.mean((pred - target) ** 2)


def psnr_value(pred, target_kspace, lo=0.0, hi=1.0):
    mse = pixel_mse(pred, target_kspace).item()
    if mse == 0:
        return torch.tensor(100.0)
    psnr = 20.0 * math.log10((hi - lo) / math.sqrt(mse))
    return torch.tensor(psnr)


def recon_loss(pred, target_kspace, mse_weight=1.0, psnr_weight=0.0):
    loss_mse = mse_weight * pixel_mse(pred, target_kspace)
    loss_psnr = psnr_weight * (1.0 / psnr_value(pred, target_kspace))
    return loss_mse + loss_psnr


def recon_loss_differentiable(pred, target_kspace, mse_weight=1.0, psnr_weight=0.0, lo=0.0, hi=1.0):
    mse = pixel_mse(pred, target_kspace)
    psnr = 20.0 * torch.log10((hi - lo) / torch.sqrt(mse))
    return mse_weight * mse + psnr_weight * (1.0 / psnr)
