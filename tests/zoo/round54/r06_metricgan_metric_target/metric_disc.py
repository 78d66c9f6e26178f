"""Metric discriminator for MetricGAN-style speech enhancement, plus a NumPy batch quality metric."""
import numpy as np
import torch
import torch.nn as nn


def quality_metric(clean, enhanced):
    """NumPy stand-in for PESQ: SNR mapped to [0, 1] (1 = perfect)."""
    err = clean - enhanced
    snr = 10 * np.log10((clean ** 2).sum() / ((err ** 2).sum() + 1e-8) + 1e-8)
    return float(1.0 / (1.0 + np.exp(-(snr - 5.0) / 3.0)))


def batch_quality(clean_list, est_list):
    scores = np.array([quality_metric(c, e) for c, e in zip(clean_list, est_list)])
    return torch.FloatTensor(scores)


class MetricDiscriminator(nn.Module):
    """Predicts the normalised quality score of (reference, estimate) magnitude pairs."""

    def __init__(self, freq_bins):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(2 * freq_bins, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid()
        )

    def forward(self, ref_mag, est_mag):
        pair = torch.cat([ref_mag.mean(-1), est_mag.mean(-1)], dim=-1)  # pool over frames
        return self.net(pair).squeeze(-1)
