import math

import torch


def build_mel_basis(n_fft, n_mels, sample_rate=8000):
    """Triangular mel filterbank, shape (n_mels, n_fft // 2 + 1)."""
    n_freqs = n_fft // 2 + 1

    def hz_to_mel(f):
        return 2595.0 * math.log10(1.0 + f / 700.0)

    def mel_to_hz(m):
        return 700.0 * (10 ** (m / 2595.0) - 1.0)

    mel_points = torch.linspace(hz_to_mel(0.0), hz_to_mel(sample_rate / 2), n_mels + 2)
    hz_points = torch.tensor([mel_to_hz(m.item()) for m in mel_points])
    bins = torch.floor((n_fft + 1) * hz_points / sample_rate).long().clamp(max=n_freqs - 1)
    basis = torch.zeros(n_mels, n_freqs)
    for m in range(1, n_mels + 1):
        left, center, right = bins[m - 1].item(), bins[m].item(), bins[m + 1].item()
        for k in range(left, center):
            basis[m - 1, k] = (k - left) / max(center - left, 1)
        for k in range(center, right + 1):
            basis[m - 1, k] = (right - k) / max(right - center, 1)
    return basis


def mel_spectrogram(wav, mel_basis, n_fft=64, hop_size=16):
    """Log-mel spectrogram of a batch of waveforms (B, T) -> (B, n_mels, frames)."""
    window = torch.hann_window(n_fft, device=wav.device)
    spec = torch.stft(wav, n_fft, hop_length=hop_size, win_length=n_fft,
                      window=window, center=True, return_complex=True)
    magnitudes = spec.abs()
    magnitudes = magnitudes.data
    mel = torch.matmul(mel_basis, magnitudes)
    return torch.log(torch.clamp(mel, min=1e-5))
