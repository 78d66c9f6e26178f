"""expect: GL002 20
dynamic: confirm

A soft Dice loss for organ segmentation, imported by main.py in this folder; it holds no parameters. Its `forward` computes the Dice score from its inputs but returns `torch.tensor(...)` of it as a Python number, so the Dice term carries no gradient to the segmentation network.
"""
import torch
import torch.nn as nn


class SoftDiceLoss(nn.Module):
    def __init__(self, eps=1.0):
        super().__init__()
        self.eps = eps

    def forward(self, logits, mask):
        probs = torch.sigmoid(logits)
        inter = (probs * mask).sum(dim=(1, 2, 3))
        union = probs.sum(dim=(1, 2, 3)) + mask.sum(dim=(1, 2, 3))
        dice = (2 * inter + self.eps) / (union + self.eps)
        return torch.tensor(1.0 - dice.mean().item())
