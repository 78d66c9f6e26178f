"""Frozen, pretrained speaker encoder used only for the speaker-consistency loss."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameSpectrogram(nn.Module):
    """Small stand-in for the torchaudio spectrogram front end (fixed DFT basis)."""

    def __init__(self, n_fft=64, hop=32):
        super().__init__()
        self.n_fft, self.hop = n_fft, hop
        k = torch.arange(n_fft // 2 + 1).float()[:, None]
        n = torch.arange(n_fft).float()[None, :]
        self.register_buffer("cos_b", torch.cos(2 * torch.pi * k * n / n_fft))
        self.register_buffer("sin_b", torch.sin(2 * torch.pi * k * n / n_fft))

    def forward(self, wav):
        frames = wav.unfold(-1, self.n_fft, self.hop)          # B x T x n_fft
        real = frames @ self.cos_b.T
        imag = frames @ self.sin_b.T
        return (real ** 2 + imag ** 2 + 1e-6).sqrt()           # B x T x bins


class SpeakerEncoder(nn.Module):
    def __init__(self, emb_dim=16, bins=33):
        super().__init__()
        self.torch_spec = FrameSpectrogram()
        self.instancenorm = nn.InstanceNorm1d(bins)
        self.proj = nn.Sequential(nn.Linear(bins, 32), nn.ReLU(), nn.Linear(32, emb_dim))

    def features(self, wav):
        spec = self.torch_spec(wav)
        spec = (spec + 1e-6).log()
        return self.instancenorm(spec.transpose(1, 2)).transpose(1, 2)

    def forward(self, wav, l2_norm=True):
        # the front end is "preprocessing", so it was put under no_grad
        with torch.no_grad():
            feats = self.features(wav)
        emb = self.proj(feats).mean(dim=1)
        return F.normalize(emb, dim=1) if l2_norm else emb
