"""Synthetic keyword clips: each keyword is a tone at its own frequency plus noise."""
import math

import torch


def synth_clips(n=256, length=200, n_keywords=4, seed=0):
    g = torch.Generator().manual_seed(seed)
    label = torch.randint(0, n_keywords, (n,), generator=g)
    t = torch.arange(length).float()
    freqs = torch.tensor([0.05, 0.12, 0.21, 0.33])[label]
    phase = torch.rand(n, 1, generator=g) * 2 * math.pi
    wave = torch.sin(2 * math.pi * freqs[:, None] * t[None] + phase)
    wave = wave + 0.3 * torch.randn(n, length, generator=g)
    return wave, label


def batches(wave, label, size=32):
    return [(wave[i:i + size], label[i:i + size]) for i in range(0, len(wave), size)]
