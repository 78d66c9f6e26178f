"""Tiny anchor-based YOLO-style detector whose head ends in a sigmoid, plus a Grad-CAM feature tap."""
import torch
import torch.nn as nn


class TinyYolo(nn.Module):
    def __init__(self, num_classes=3, num_anchors=2):
        super().__init__()
        self.na, self.nc = num_anchors, num_classes
        self.no = 5 + num_classes
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.1),
            nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.1),
        )
        self.head = nn.Conv2d(16, self.na * self.no, 1)
        self.activations = None
        self.gradients = None

    def _save_grad(self, grad):
        self.gradients = grad

    def forward(self, img):
        feat = self.backbone(img)
        self.activations = feat
        if feat.requires_grad:
            feat.register_hook(self._save_grad)
        raw = self.head(feat)
        bs, _, ny, nx = raw.shape
        raw = raw.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        y = raw.sigmoid()
        return y.view(bs, -1, self.no)
