"""Recurrent feature-shift aggregator (RESA-style) used after the channel reducer."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ChannelReducer(nn.Module):
    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, 1, bias=False)
        self.bn = nn.BatchNorm2d(out_ch)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class ShiftAggregator(nn.Module):
    """Each step adds a shifted, convolved copy of the map onto itself (down then right)."""

    def __init__(self, ch, steps=2, alpha=2.0, inplace=True):
        super().__init__()
        self.steps = steps
        self.alpha = alpha
        self.inplace = inplace
        self.conv_v = nn.ModuleList(nn.Conv2d(ch, ch, (1, 3), padding=(0, 1), bias=False) for _ in range(steps))
        self.conv_h = nn.ModuleList(nn.Conv2d(ch, ch, (3, 1), padding=(1, 0), bias=False) for _ in range(steps))

    def _accumulate(self, y, update):
        if self.inplace:
            return y.add_(update)
        return y + update

    def forward(self, x):
        y = x
        h, w = y.shape[-2:]
        for i in range(self.steps):
            idx = (torch.arange(h) + h // 2 ** (self.steps - i)) % h
            y = self._accumulate(y, self.alpha * F.relu(self.conv_v[i](y[:, :, idx, :])))
        for i in range(self.steps):
            idx = (torch.arange(w) + w // 2 ** (self.steps - i)) % w
            y = self._accumulate(y, self.alpha * F.relu(self.conv_h[i](y[:, :, :, idx])))
        return y
