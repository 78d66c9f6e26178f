import numpy as np
import torch
import torch.nn as nn


def dtw_distance_np(a, b):
    """Classic O(n*m) dynamic time warping between two 1-D numpy series."""
    n, m = len(a), len(b)
    cost = np.full((n + 1, m + 1), np.inf)
    cost[0, 0] = 0.0
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d = abs(a[i - 1] - b[j - 1])
            cost[i, j] = d + min(cost[i - 1, j], cost[i, j - 1], cost[i - 1, j - 1])
    return cost[n, m]


class DTWLoss(nn.Module):
    """Batch-mean DTW distance between forecast and target windows."""

    def forward(self, predicted, target):
        pred_np = predicted.detach().cpu().numpy()
        targ_np = target.detach().cpu().numpy()
        distance = np.mean([dtw_distance_np(p, t) for p, t in zip(pred_np, targ_np)])
        distance = torch.tensor(distance, dtype=torch.float32, requires_grad=True)
        return distance


def dtw_distance_torch(a, b):
    """Same recursion written with torch ops, so it stays on the graph."""
    n, m = a.shape[0], b.shape[0]
    inf = torch.tensor(float("inf"))
    prev = [torch.tensor(0.0)] + [inf] * m
    for i in range(1, n + 1):
        cur = [inf]
        for j in range(1, m + 1):
            d = (a[i - 1] - b[j - 1]).abs()
            cur.append(d + torch.min(torch.stack([prev[j], cur[j - 1], prev[j - 1]])))
        prev = cur
    return prev[m]


class TorchDTWLoss(nn.Module):
    def forward(self, predicted, target):
        return torch.stack([dtw_distance_torch(p, t) for p, t in zip(predicted, target)]).mean()
