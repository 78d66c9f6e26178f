"""Mel spectrogram helpers for the bandwidth-extension trainer."""
import numpy as np
import torch

SR, N_FFT, HOP, N_MELS = 8000, 64, 16, 12


def _mel_basis():
    """Triangular filters on a linear-frequency grid (stand-in for librosa.filters.mel)."""
    n_bins = N_FFT // 2 + 1
    edges = np.linspace(0, n_bins - 1, N_MELS + 2)
    basis = np.zeros((N_MELS, n_bins))
    for m in range(N_MELS):
        lo, mid, hi = edges[m], edges[m + 1], edges[m + 2]
        k = np.arange(n_bins)
        basis[m] = np.clip(np.minimum((k - lo) / (mid - lo), (hi - k) / (hi - mid)), 0, None)
    return basis


MEL_BASIS = _mel_basis()
WINDOW = np.hanning(N_FFT)


def mel_spectrogram(y):
    """y: (batch, samples) tensor or array -> np.ndarray (batch, n_mels, frames)."""
    try:
        audio_np = y.cpu().detach().numpy().astype(float)
    except AttributeError:
        audio_np = y
    n_frames = 1 + (audio_np.shape[1] - N_FFT) // HOP
    frames = np.stack([audio_np[:, i * HOP:i * HOP + N_FFT] * WINDOW for i in range(n_frames)], 1)
    mag = np.abs(np.fft.rfft(frames, axis=-1))  # (batch, frames, bins)
    return np.log(np.einsum("mk,bfk->bmf", MEL_BASIS, mag) + 1e-5)


def mel_spectrogram_torch(y):
    """Same transform kept on the autograd record."""
    n_frames = 1 + (y.shape[1] - N_FFT) // HOP
    frames = y.unfold(1, N_FFT, HOP)[:, :n_frames] * torch.from_numpy(WINDOW).float()
    mag = torch.fft.rfft(frames, dim=-1).abs()
    basis = torch.from_numpy(MEL_BASIS).float()
    return torch.log(torch.einsum("mk,bfk->bmf", basis, mag) + 1e-5)
