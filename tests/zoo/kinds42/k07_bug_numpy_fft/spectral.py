"""Spectral diagnostics for denoised signals."""
import numpy as np
import torch


def highband_ratio(signals, cutoff=8):
    """Fraction of each signal's spectral magnitude above `cutoff` bins."""
    frames = signals.detach().cpu().numpy()
    ratios = np.zeros(frames.shape[0], dtype=np.float32)
    for i, frame in enumerate(frames):
        mag = np.abs(np.fft.rfft(frame))
        ratios[i] = mag[cutoff:].sum() / (mag.sum() + 1e-8)
    return torch.from_numpy(ratios)


def highband_ratio_torch(signals, cutoff=8):
    mag = torch.fft.rfft(signals, dim=1).abs()
    return mag[:, cutoff:].sum(dim=1) / (mag.sum(dim=1) + 1e-8)
