"""Helper module of the r7_02 reproduction (see main.py for the docstring with
the expected finding). A small, frozen, learned perceptual distance for
waveforms, modelled on the pip version of a deep perceptual audio metric:
its entry point accepts NumPy arrays (or tensors), normalises everything to a
float32 NumPy array and wraps it back into a tensor before the encoder runs.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class WaveEncoder(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.conv1 = nn.Conv1d(1, channels, 9, stride=2, padding=4)
        self.conv2 = nn.Conv1d(channels, channels, 9, stride=2, padding=4)

    def forward(self, x):
        h = F.leaky_relu(self.conv1(x), 0.2)
        h = F.leaky_relu(self.conv2(h), 0.2)
        return h.mean(-1)


def to_model_input(wav):
    """Accept a NumPy array or a tensor of shape (N, L); return float32 (N, L)."""
    if torch.is_tensor(wav):
        wav = wav.detach().cpu().numpy()
    return torch.from_numpy(np.ascontiguousarray(wav, dtype=np.float32))


class PerceptualDistance:
    """Frozen metric: distance between normalised deep features."""

    def __init__(self, seed=0):
        torch.manual_seed(seed)
        self.encoder = WaveEncoder()
        for p in self.encoder.parameters():
            p.requires_grad_(False)
        self.encoder.eval()

    def embed(self, audio):
        return F.normalize(self.encoder(audio.unsqueeze(1)), dim=1)

    def forward(self, wav_in, wav_ref):
        a = to_model_input(wav_in)
        b = to_model_input(wav_ref)
        return (self.embed(a) - self.embed(b)).pow(2).sum(1).mean()

    __call__ = forward
