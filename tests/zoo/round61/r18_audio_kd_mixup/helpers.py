"""Augmentation helpers for the audio-tagging trainer (mixup, frequency MixStyle)."""
import numpy as np
import torch
from torch.distributions.beta import Beta


def mixup(batch_size, alpha):
    """Random partner indices and per-sample mixing weights (kept >= 0.5)."""
    partner = torch.randperm(batch_size)
    lam = np.random.beta(alpha, alpha, batch_size).astype(np.float32)
    lam = np.maximum(lam, 1.0 - lam)
    return partner, torch.from_numpy(lam)


def freq_mixstyle(x, p=0.5, alpha=0.3, eps=1e-6):
    """Mix per-frequency statistics between samples of a (B, C, F, T) spectrogram batch."""
    if np.random.rand() > p:
        return x
    b = x.size(0)
    mu = x.mean(dim=(1, 3), keepdim=True)
    sig = (x.var(dim=(1, 3), keepdim=True) + eps).sqrt()
    mu, sig = mu.detach(), sig.detach()          # statistics act as constants
    normed = (x - mu) / sig
    lmda = Beta(alpha, alpha).sample((b, 1, 1, 1))
    perm = torch.randperm(b)
    mu_mix = mu * lmda + mu[perm] * (1 - lmda)
    sig_mix = sig * lmda + sig[perm] * (1 - lmda)
    return normed * sig_mix + mu_mix
