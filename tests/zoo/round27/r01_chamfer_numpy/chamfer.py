"""Chamfer distance for point clouds, computed with a numpy nearest-neighbour search."""
import numpy as np
import torch


def _nearest_sq_dist(query, ref):
    # brute force stand-in for a numpy-only KD-tree library
    d = ((query[:, None, :] - ref[None, :, :]) ** 2).sum(-1)
    return d.min(axis=1)


class NumpyChamfer:
    """Callable loss object: symmetric chamfer distance averaged over the batch."""

    def __init__(self, squared=True):
        self.squared = squared

    def __call__(self, pred, target):
        p = pred.detach().cpu().numpy()
        t = target.detach().cpu().numpy()
        total = 0.0
        for b in range(p.shape[0]):
            a = _nearest_sq_dist(p[b], t[b])
            c = _nearest_sq_dist(t[b], p[b])
            if not self.squared:
                a, c = np.sqrt(a), np.sqrt(c)
            total += a.mean() + c.mean()
        return torch.tensor(total / p.shape[0], dtype=torch.float32, requires_grad=True)


def torch_chamfer(pred, target):
    d = torch.cdist(pred, target) ** 2
    return (d.min(dim=2).values.mean(dim=1) + d.min(dim=1).values.mean(dim=1)).mean()
