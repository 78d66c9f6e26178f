import torch
import torch.nn as nn


class RadarEncoder(nn.Module):
    """Encodes a short history of precipitation radar frames (T x H x W) into a feature map."""

    def __init__(self, history=4, ch=12):
        super().__init__()
        self.conv1 = nn.Conv2d(history, ch, 3, padding=1)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, frames):
        return torch.relu(self.conv2(torch.relu(self.conv1(frames))))


class NextFrameHead(nn.Module):
    def __init__(self, ch=12):
        super().__init__()
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, feat):
        return self.out(feat)


class RainMaskHead(nn.Module):
    def __init__(self, ch=12):
        super().__init__()
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, feat):
        return self.out(feat)
