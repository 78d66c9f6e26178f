"""
expect: none
dynamic: dismiss
source: kinds check 33, kind 3

A learning-to-rank loss module for search results uses a local lambda to turn
tensors into NumPy, but only to report a rank-correlation metric. The value it
returns for training is a pairwise hinge loss built from torch ops on the
ranker's outputs, so gradients reach every parameter.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class PairwiseRankLoss(nn.Module):
    def forward(self, scores, relevance):
        as_np = lambda t: t.detach().cpu().numpy()
        s, r = as_np(scores), as_np(relevance)
        rank_s = np.argsort(np.argsort(s))
        rank_r = np.argsort(np.argsort(r))
        rho = float(np.corrcoef(rank_s, rank_r)[0, 1])
        diff_s = scores[:, None] - scores[None, :]
        better = (relevance[:, None] > relevance[None, :]).float()
        hinge = (torch.relu(1.0 - diff_s) * better).sum() / better.sum()
        return hinge, rho


ranker = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
docs = torch.randn(30, 6)
relevance = docs[:, 0] * 2.0 + torch.randn(30) * 0.1

criterion = PairwiseRankLoss()
loss, rho = criterion(ranker(docs).squeeze(-1), relevance)
loss.backward()

assert isinstance(rho, float) and -1.0 <= rho <= 1.0
assert loss.grad_fn is not None
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in ranker.parameters())
print("ok: hinge", loss.item(), "rho", rho)
