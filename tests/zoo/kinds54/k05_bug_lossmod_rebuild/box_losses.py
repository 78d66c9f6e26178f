import torch
import torch.nn as nn
import torch.nn.functional as F


def robust_offset_loss(pred, target):
    loss = F.smooth_l1_loss(pred, target, beta=0.5)
    return torch.tensor(loss.item(), requires_grad=True)


def squared_offset_loss(pred, target):
    return F.mse_loss(pred, target)


class OffsetLoss(nn.Module):
    def __init__(self, robust=True):
        super().__init__()
        self.fn = robust_offset_loss if robust else squared_offset_loss

    def forward(self, pred, target):
        return self.fn(pred, target)
