import torch
import torch.nn as nn


def make_backbone():
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    )


class ProbeClassifier(nn.Module):
    """Frozen pretrained CNN features + a small trainable adapter head."""

    def __init__(self, backbone, num_classes=4):
        super().__init__()
        self.backbone = backbone
        for p in self.backbone.parameters():
            p.requires_grad_(False)
        self.adapter = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.LayerNorm(64))
        self.classifier = nn.Linear(64, num_classes)

    def train(self, mode=True):
        super().train(mode)
        self.backbone.eval()
        return self

    def forward(self, images):
        with torch.no_grad():
            feats = self.backbone(images)
        return self.classifier(self.adapter(feats))
