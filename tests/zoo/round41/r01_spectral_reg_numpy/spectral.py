"""Azimuthally averaged log-power spectrum of image batches (frequency regulariser helper)."""
import numpy as np
import torch


def _radial_mean(magnitude, nbins):
    h, w = magnitude.shape
    yy, xx = np.indices((h, w))
    radius = np.hypot(yy - h / 2.0, xx - w / 2.0).astype(np.int64)
    sums = np.bincount(radius.ravel(), weights=magnitude.ravel())
    counts = np.maximum(np.bincount(radius.ravel()), 1)
    return (sums / counts)[:nbins]


def spectrum_profiles(images, nbins):
    """One normalised 1-D power profile per image, values in [0, 1]."""
    gray = images.mean(dim=1)
    profiles = np.zeros((gray.shape[0], nbins))
    for i in range(gray.shape[0]):
        plane = gray[i].detach().cpu().numpy()
        shifted = np.fft.fftshift(np.fft.fft2(plane)) + 1e-8
        prof = _radial_mean(20.0 * np.log(np.abs(shifted)), nbins)
        profiles[i] = (prof - prof.min()) / (prof.max() - prof.min() + 1e-8)
    return torch.from_numpy(profiles).float()


def spectrum_profiles_torch(images, nbins):
    """Same profile computed with differentiable torch ops (the intended version)."""
    gray = images.mean(dim=1)
    h, w = gray.shape[-2:]
    shifted = torch.fft.fftshift(torch.fft.fft2(gray), dim=(-2, -1))
    magnitude = 20.0 * torch.log(shifted.abs() + 1e-8)
    yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
    radius = torch.hypot(yy - h / 2.0, xx - w / 2.0).long().flatten()
    onehot = torch.nn.functional.one_hot(radius, int(radius.max()) + 1).float()
    prof = (magnitude.flatten(1) @ onehot) / onehot.sum(0).clamp(min=1)
    prof = prof[:, :nbins]
    lo = prof.min(dim=1, keepdim=True).values
    hi = prof.max(dim=1, keepdim=True).values
    return (prof - lo) / (hi - lo + 1e-8)
