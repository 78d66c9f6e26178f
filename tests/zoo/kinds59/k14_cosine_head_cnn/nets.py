import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineClassifierNet(nn.Module):
    """Conv feature extractor followed by a scaled cosine-similarity classifier (NormFace style)."""

    def __init__(self, n_classes, width=16, scale=10.0):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(2 * width, n_classes, bias=False)
        self.scale = scale

    def _unit_weight(self):
        w = self.classifier.weight.data
        return w / w.norm(dim=1, keepdim=True).clamp_min(1e-6)

    def forward(self, x):
        feat = F.normalize(self.features(x).flatten(1), dim=1)
        return self.scale * F.linear(feat, self._unit_weight())
