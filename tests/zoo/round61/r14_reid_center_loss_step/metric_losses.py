"""Metric-learning losses with their own optimizer (center loss on the unit sphere)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CenterLoss(nn.Module):
    def __init__(self, num_ids, dim):
        super().__init__()
        self.centers = nn.Parameter(torch.randn(num_ids, dim))

    def forward(self, feats, ids):
        f = F.normalize(feats, dim=1)
        c = F.normalize(self.centers, dim=1)
        cos = (f * c[ids]).sum(dim=1).clamp(-1.0, 1.0)
        return (1.0 - cos).mean()


class MetricLosses:
    """Keeps the center loss and an optimizer for the centers; the engine calls
    init_iteration() / __call__ / end_iteration() around every batch."""

    def __init__(self, num_ids, dim, center_coeff=1.0, center_lr=0.5):
        self.center_coeff = center_coeff
        self.center_loss = CenterLoss(num_ids, dim)
        self.center_optimizer = torch.optim.SGD(self.center_loss.parameters(), lr=center_lr)
        self.last_loss_value = None

    def __call__(self, feats, ids):
        loss = self.center_coeff * self.center_loss(feats, ids)
        self.last_loss_value = loss
        return loss

    def init_iteration(self):
        self.center_optimizer.zero_grad()

    def end_iteration(self, run_backward=True):
        if run_backward:
            self.last_loss_value.backward(retain_graph=True)
        self.center_optimizer.step()
