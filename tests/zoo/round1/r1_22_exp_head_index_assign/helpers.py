import torch
import torch.nn as nn


class SizeHead(nn.Module):
    """Predicts box width/height as positive scales of the anchors."""

    def __init__(self, channels, anchors=3):
        super().__init__()
        self.conv = nn.Conv2d(channels, anchors * 2, 1)
        self.anchors = anchors

    def forward(self, feat):
        b, _, h, w = feat.shape
        raw = self.conv(feat).view(b, self.anchors, 2, h, w)
        return torch.exp(raw)
