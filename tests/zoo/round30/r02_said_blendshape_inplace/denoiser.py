import torch
import torch.nn as nn


class BlendshapeDenoiser(nn.Module):
    """Predicts the noise on a blendshape sequence, conditioned on audio features."""

    def __init__(self, n_bs=8, d_audio=12, hidden=16):
        super().__init__()
        self.inp = nn.Linear(n_bs, hidden)
        self.cond = nn.Linear(d_audio, hidden)
        self.out = nn.Linear(hidden, n_bs)
        self.gain = 0.5

    def forward(self, noisy, audio):
        h = torch.tanh(self.inp(noisy))
        h *= self.gain               # in-place on tanh output, which TanhBackward saved
        h += self.cond(audio)
        return self.out(h)


class BlendshapeDenoiserFixed(BlendshapeDenoiser):
    def forward(self, noisy, audio):
        h = torch.tanh(self.inp(noisy))
        h = h * self.gain + self.cond(audio)
        return self.out(h)
