"""Global-descriptor landmark retrieval model (CNN backbone + token refinement + ArcFace head)."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcFace(nn.Module):
    def __init__(self, dim, n_classes, s=8.0, m=0.2, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_classes, dim) * 0.1)
        self.s, self.m, self.eps = s, m, eps
        self.threshold = math.pi - m

    def forward(self, feats, labels):
        cos = F.linear(F.normalize(feats, dim=-1), F.normalize(self.weight, dim=-1))
        theta = torch.acos(cos.clamp(-1 + self.eps, 1 - self.eps))
        one_hot = F.one_hot(labels, cos.shape[1]).bool()
        margin = one_hot & (theta <= self.threshold)
        return self.s * torch.cos(torch.where(margin, theta + self.m, theta))


class TokenRetrievalNet(nn.Module):
    def __init__(self, n_classes=10, dim=16):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten()
        )
        self.refine = nn.Sequential(nn.Linear(8 * 16, dim), nn.GELU(), nn.Linear(dim, dim))
        self.classifier = ArcFace(dim, n_classes)

    def descriptor(self, images):
        return F.normalize(self.refine(self.backbone(images)), dim=-1)

    def _loss_and_logits(self, images, labels):
        logits = self.classifier(self.refine(self.backbone(images)), labels)
        return F.cross_entropy(logits, labels), logits

    @torch.no_grad()
    def forward(self, images, labels):
        return self._loss_and_logits(images, labels)
