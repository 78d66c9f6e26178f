"""Loss-prediction module and its ranking loss (learning-loss active learning)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LossNet(nn.Module):
    """Predicts the backbone's per-sample loss from its intermediate feature maps."""

    def __init__(self, channels=(8, 16), hidden=16):
        super().__init__()
        self.fcs = nn.ModuleList([nn.Linear(c, hidden) for c in channels])
        self.head = nn.Linear(hidden * len(channels), 1)

    def forward(self, features):
        pooled = []
        for feat, fc in zip(features, self.fcs):
            v = F.adaptive_avg_pool2d(feat, 1).flatten(1)
            pooled.append(F.relu(fc(v)))
        return self.head(torch.cat(pooled, dim=1)).view(-1)


def loss_pred_loss(pred, target, margin=1.0):
    """Pairwise ranking loss between predicted and true per-sample losses."""
    pred = (pred - pred.flip(0))[: len(pred) // 2]
    target = (target - target.flip(0))[: len(target) // 2]
    target = target.detach()  # the true losses are labels for the module, not something to train
    sign = 2 * torch.sign(torch.clamp(target, min=0)) - 1
    return torch.clamp(margin - sign * pred, min=0).sum() / pred.size(0)
