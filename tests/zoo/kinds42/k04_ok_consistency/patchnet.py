"""A tiny patch classifier with a view-consistency objective."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchNet(nn.Module):
    def __init__(self, pixels=64, classes=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(pixels, 32), nn.ReLU(), nn.Linear(32, classes))

    def forward(self, patches):
        return self.encoder(patches)

    def objectives(self, patches, labels, noise, gen):
        view_a = patches + noise * torch.randn(patches.shape, generator=gen)
        view_b = patches + noise * torch.randn(patches.shape, generator=gen)
        logits_a = self(view_a)
        logits_b = self(view_b)
        supervised = F.cross_entropy(logits_a, labels)
        target = F.softmax(logits_b, dim=1).detach()
        agreement = F.mse_loss(F.softmax(logits_a, dim=1), target)
        return supervised, agreement
