import torch
import torch.nn as nn
import torch.nn.functional as F


class FrozenFeatures(nn.Module):
    """Small stand-in for the truncated, pre-trained VGG trunk (never trained)."""

    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(8, 8, 3, padding=1),
            nn.ReLU(),
        )
        for p in self.body.parameters():
            p.requires_grad = False
        self.eval()

    def forward(self, x):
        return self.body(x)


class FieldPerceptualLoss(nn.Module):
    """Perceptual loss for one-channel climate fields (e.g. 2 m temperature)."""

    def __init__(self, features):
        super().__init__()
        self.features = features

    def forward(self, fake_hr, hr):
        # the feature net was trained on RGB, so repeat the single field 3 times
        fake3 = fake_hr.repeat(1, 3, 1, 1)
        real3 = hr.repeat(1, 3, 1, 1)
        with torch.no_grad():
            loss = F.l1_loss(self.features(real3), self.features(fake3))
        return loss


class FieldPerceptualLossFixed(FieldPerceptualLoss):
    """Same distance, but the generated field stays on the autograd record."""

    def forward(self, fake_hr, hr):
        fake3 = fake_hr.repeat(1, 3, 1, 1)
        real3 = hr.repeat(1, 3, 1, 1)
        with torch.no_grad():
            target = self.features(real3)
        return F.l1_loss(self.features(fake3), target)
