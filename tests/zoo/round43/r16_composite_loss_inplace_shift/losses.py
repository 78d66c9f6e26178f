"""Composite reconstruction loss: MSE + L1 + a structural (SSIM-style) term that shifts images to be positive."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def ssim_distance(a, b, c1=1e-4, c2=9e-4):
    mu_a = F.avg_pool2d(a, 3, 1, 1)
    mu_b = F.avg_pool2d(b, 3, 1, 1)
    var_a = F.avg_pool2d(a * a, 3, 1, 1) - mu_a ** 2
    var_b = F.avg_pool2d(b * b, 3, 1, 1) - mu_b ** 2
    cov = F.avg_pool2d(a * b, 3, 1, 1) - mu_a * mu_b
    ssim = ((2 * mu_a * mu_b + c1) * (2 * cov + c2)) / ((mu_a ** 2 + mu_b ** 2 + c1) * (var_a + var_b + c2))
    return 1.0 - ssim.mean()


class StructuralLoss(nn.Module):
    def __init__(self, factor=10.0, shift=10.0):
        super().__init__()
        self.factor = factor
        self.shift = shift

    def forward(self, inp, target):
        if inp.dim() == 3:
            inp = inp.unsqueeze(1)
        if target.dim() == 3:
            target = target.unsqueeze(1)
        inp += self.shift
        target += self.shift
        return self.factor * ssim_distance(inp, target)


class ShiftedCopyStructuralLoss(StructuralLoss):
    def forward(self, inp, target):
        if inp.dim() == 3:
            inp = inp.unsqueeze(1)
        if target.dim() == 3:
            target = target.unsqueeze(1)
        return self.factor * ssim_distance(inp + self.shift, target + self.shift)


class CompositeLoss(nn.Module):
    def __init__(self, structural=None):
        super().__init__()
        self.structural = structural if structural is not None else StructuralLoss()

    def forward(self, inp, target):
        mse = F.mse_loss(inp, target)
        mae = F.l1_loss(inp, target)
        return mse + mae + self.structural(inp, target)
