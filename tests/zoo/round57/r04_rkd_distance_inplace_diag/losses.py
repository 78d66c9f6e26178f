"""Relational knowledge distillation (RKD) distance loss, Park et al. 2019."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def pairwise_distance(embeddings, squared=False, eps=1e-12):
    """Pairwise Euclidean distances with a zero diagonal."""
    embeddings_square = embeddings.pow(2).sum(dim=1)
    prod = embeddings @ embeddings.t()
    res = (embeddings_square.unsqueeze(1) + embeddings_square.unsqueeze(0) - 2 * prod).clamp(min=eps)
    if not squared:
        res = res.sqrt()
    n = len(embeddings)
    res[range(n), range(n)] = 0
    return res


def pairwise_distance_cloned(embeddings, squared=False, eps=1e-12):
    embeddings_square = embeddings.pow(2).sum(dim=1)
    prod = embeddings @ embeddings.t()
    res = (embeddings_square.unsqueeze(1) + embeddings_square.unsqueeze(0) - 2 * prod).clamp(min=eps)
    if not squared:
        res = res.sqrt()
    res = res.clone()
    n = len(embeddings)
    res[range(n), range(n)] = 0
    return res


class RKDDistance(nn.Module):
    def __init__(self, dist_fn=pairwise_distance):
        super().__init__()
        self.dist_fn = dist_fn

    def forward(self, student, teacher):
        with torch.no_grad():
            t_d = self.dist_fn(teacher)
            t_d = t_d / t_d[t_d > 0].mean()
        d = self.dist_fn(student)
        d = d / d[d > 0].mean()
        return F.smooth_l1_loss(d, t_d)
