"""Asymmetric loss for multi-label classification (memory-lean variant)."""
import torch
import torch.nn as nn


class AsymmetricLossLean(nn.Module):
    """Keeps intermediate buffers on the module and updates them in place to save memory."""

    def __init__(self, gamma_neg=4, gamma_pos=1, clip=0.05, eps=1e-8, lean=True):
        super().__init__()
        self.gamma_neg = gamma_neg
        self.gamma_pos = gamma_pos
        self.clip = clip
        self.eps = eps
        self.lean = lean

    def forward(self, logits, targets):
        self.targets = targets
        self.anti_targets = 1 - targets
        self.xs_pos = torch.sigmoid(logits)
        self.xs_neg = 1.0 - self.xs_pos
        if self.clip > 0:
            self.xs_neg.add_(self.clip).clamp_(max=1)
        self.loss = self.targets * torch.log(self.xs_pos.clamp(min=self.eps))
        self.loss.add_(self.anti_targets * torch.log(self.xs_neg.clamp(min=self.eps)))
        if self.gamma_neg > 0 or self.gamma_pos > 0:
            if self.lean:
                self.xs_pos.mul_(self.targets)
                pos_part = self.xs_pos
            else:
                pos_part = self.xs_pos * self.targets
            neg_part = self.xs_neg * self.anti_targets
            gamma = self.gamma_pos * self.targets + self.gamma_neg * self.anti_targets
            self.loss *= torch.pow(1 - pos_part - neg_part, gamma)
        return -self.loss.sum()
