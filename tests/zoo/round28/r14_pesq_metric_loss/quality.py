"""Objective speech-quality scores. Inputs are NumPy arrays (like the C wrappers)."""
import numpy as np


def segmental_snr(clean, enhanced, frame=64, eps=1e-8):
    """Mean segmental SNR in dB, clipped per frame to [-10, 35] as in the standard."""
    n = (len(clean) // frame) * frame
    c = clean[:n].reshape(-1, frame)
    e = enhanced[:n].reshape(-1, frame)
    snr = 10 * np.log10((c ** 2).sum(1) / (((c - e) ** 2).sum(1) + eps) + eps)
    return float(np.clip(snr, -10, 35).mean())


def batch_quality(clean, enhanced):
    """clean, enhanced: torch tensors (B, T). Returns the batch-mean score."""
    c = clean.detach().cpu().numpy()
    e = enhanced.detach().cpu().numpy()
    return float(np.mean([segmental_snr(ci, ei) for ci, ei in zip(c, e)]))
