"""Tiny stand-ins for the augmentor / point classifier pair of a learnable
point-cloud augmentation setup (sample-aware shape transform + point shifts)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Augmentor(nn.Module):
    """Predicts a per-cloud 3x3 transform and a per-point displacement."""

    def __init__(self, feat=16, noise_dim=8):
        super().__init__()
        self.enc = nn.Conv1d(3, feat, 1)
        self.to_matrix = nn.Linear(feat + noise_dim, 9)
        self.to_shift = nn.Conv1d(feat + noise_dim, 3, 1)

    def forward(self, pts, noise):
        # pts: (B, 3, N), noise: (B, noise_dim)
        f = F.relu(self.enc(pts))
        g = f.max(dim=2).values
        m = self.to_matrix(torch.cat([g, noise], 1)).view(-1, 3, 3)
        m = m + torch.eye(3).unsqueeze(0)
        n = pts.size(2)
        local = torch.cat([f, noise.unsqueeze(2).expand(-1, -1, n)], 1)
        shift = 0.05 * torch.tanh(self.to_shift(local))
        return torch.bmm(m, pts) + shift


class PointCls(nn.Module):
    """PointNet-lite classifier returning logits and the global feature."""

    def __init__(self, n_cls=4, feat=32):
        super().__init__()
        self.c1 = nn.Conv1d(3, 16, 1)
        self.c2 = nn.Conv1d(16, feat, 1)
        self.head = nn.Linear(feat, n_cls)

    def forward(self, pts):
        x = F.relu(self.c1(pts))
        x = F.relu(self.c2(x))
        g = x.max(dim=2).values
        return self.head(g), g


def aug_loss(pred_pc, pred_aug, target, rho=1.5):
    """The augmentor wants samples that are harder, but not too hard."""
    ce_pc = F.cross_entropy(pred_pc, target)
    ce_aug = F.cross_entropy(pred_aug, target)
    return torch.abs(1.0 - torch.exp(ce_aug - rho * ce_pc))


def cls_loss(pred_pc, pred_aug, target, pc_feat, aug_feat, w=0.5):
    """The classifier learns from both clouds and keeps their features close."""
    ce = F.cross_entropy(pred_pc, target) + F.cross_entropy(pred_aug, target)
    return ce + w * F.mse_loss(aug_feat, pc_feat)
