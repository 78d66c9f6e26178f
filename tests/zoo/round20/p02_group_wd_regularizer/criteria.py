"""Importance criteria shared by the pruning schedule and the group regulariser."""
import torch
import torch.nn as nn


class Criteria:
    def __init__(self, f, reducer="mean"):
        self.f = f
        self.reducer = reducer

    @torch.no_grad()
    def __call__(self, m, dims):
        wf = self.f(m.weight)
        if not hasattr(m, "_mask"):
            m.register_buffer("_mask", torch.ones_like(wf))
        scores = self._rescale(wf).mul_(m._mask)
        return self._reduce(scores, dims)

    def _reduce(self, scores, dims):
        if self.reducer == "sum":
            return scores.sum(dim=dims)
        return scores.mean(dim=dims)

    def _rescale(self, scores):
        # keep scores strictly positive so already-pruned weights are not picked twice
        scores += scores.min().abs() + torch.finfo(torch.float32).eps
        return scores


large_final = Criteria(torch.abs, reducer="sum")


def filter_dims(m: nn.Conv2d):
    """Granularity 'filter': one score per output channel."""
    return (1, 2, 3)
