import torch
import torch.nn as nn


def soft_assign(sq_dist, temperature=1.0):
    w = torch.exp(-sq_dist / temperature)
    w.clamp_(min=1e-8)
    return w / w.sum(dim=-1, keepdim=True)


def softmax_assign(sq_dist, temperature=1.0):
    return torch.softmax(-sq_dist / temperature, dim=-1).clamp(min=1e-8)


class ClusterHead(nn.Module):
    """Soft assignment of embeddings to learnable prototypes."""

    def __init__(self, dim, n_protos, kernel=soft_assign, temperature=1.0):
        super().__init__()
        self.prototypes = nn.Parameter(torch.randn(n_protos, dim))
        self.kernel = kernel
        self.temperature = temperature

    def forward(self, z):
        sq_dist = torch.cdist(z, self.prototypes).pow(2)
        return self.kernel(sq_dist, self.temperature)
