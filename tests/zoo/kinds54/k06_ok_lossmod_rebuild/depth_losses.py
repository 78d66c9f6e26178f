import torch
import torch.nn as nn


def scale_invariant(pred, gt):
    d = torch.log(pred) - torch.log(gt)
    return (d ** 2).mean() - 0.5 * d.mean() ** 2


def abs_rel(pred, gt):
    return ((pred - gt).abs() / gt).mean()


class DepthCriterion(nn.Module):
    def __init__(self, si=True):
        super().__init__()
        self.fn = scale_invariant if si else abs_rel

    def forward(self, pred, gt):
        return self.fn(pred, gt)
