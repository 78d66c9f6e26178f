"""Base class for in-batch contrastive objectives (retrieval, alignment)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InBatchContrastive(nn.Module):
    def __init__(self, temperature=0.05):
        super().__init__()
        self.temperature = temperature

    def _anchor(self, z):
        return F.normalize(z, dim=-1)

    def _candidates(self, z):
        return F.normalize(z, dim=-1).detach()

    def _logits(self, a, c):
        return a @ c.t() / self.temperature
