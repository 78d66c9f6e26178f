"""Residual blocks and an audio-feature tagger built from them."""
import torch
import torch.nn as nn


class GatedResidual(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)
        self.gate = nn.Linear(width, width)

    def forward(self, x):
        h = x
        h += torch.tanh(self.proj(x)) * torch.sigmoid(self.gate(x))
        return h


class PlainResidual(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.proj = nn.Linear(width, width)

    def forward(self, x):
        return x + torch.tanh(self.proj(x))


class MelTagger(nn.Module):
    def __init__(self, n_mels=40, width=32, tags=6, depth=3, block=GatedResidual):
        super().__init__()
        self.stem = nn.Linear(n_mels, width)
        self.blocks = nn.ModuleList([block(width) for _ in range(depth)])
        self.out = nn.Linear(width, tags)

    def forward(self, mel):
        x = torch.sigmoid(self.stem(mel))
        for blk in self.blocks:
            x = blk(x)
        return self.out(x)
