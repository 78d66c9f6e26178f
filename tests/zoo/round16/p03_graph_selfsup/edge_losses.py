"""Loss terms for self-supervised node embedding training."""
import torch
import torch.nn as nn


class EdgeAgreementLoss(nn.Module):
    """Neighbouring nodes should get similar (high dot-product) embeddings."""

    def __init__(self, margin=1.0):
        super().__init__()
        self.margin = margin

    def forward(self, h, edge_index):
        total = h.new_zeros(())
        for s, d in edge_index.t().tolist():
            score = torch.dot(h[s], h[d]).detach().clone().requires_grad_(True)
            total = total + (self.margin - score)
        return total / edge_index.size(1)


class EdgeAgreementLossVec(nn.Module):
    def __init__(self, margin=1.0):
        super().__init__()
        self.margin = margin

    def forward(self, h, edge_index):
        src, dst = edge_index
        score = (h[src] * h[dst]).sum(dim=1)
        return (self.margin - score).mean()
