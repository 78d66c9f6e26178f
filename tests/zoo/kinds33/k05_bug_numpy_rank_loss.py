"""
expect: GL002 25
dynamic: confirm
source: kinds check 33, kind 3

A learning-to-rank loss module for search results converts predictions and
relevance labels to NumPy through a local lambda, computes a rank-correlation
score there, and wraps it in a fresh leaf with requires_grad=True. backward()
runs, but the ranker's parameters never receive a gradient.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class RankCorrelationLoss(nn.Module):
    def forward(self, scores, relevance):
        as_np = lambda t: t.detach().cpu().numpy()
        s, r = as_np(scores), as_np(relevance)
        rank_s = np.argsort(np.argsort(s))
        rank_r = np.argsort(np.argsort(r))
        rho = np.corrcoef(rank_s, rank_r)[0, 1]
        return torch.tensor(1.0 - rho, requires_grad=True)


ranker = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
docs = torch.randn(30, 6)
relevance = docs[:, 0] * 2.0 + torch.randn(30) * 0.1

criterion = RankCorrelationLoss()
loss = criterion(ranker(docs).squeeze(-1), relevance)
loss.backward()

assert loss.grad_fn is None and loss.requires_grad
assert all(p.grad is None for p in ranker.parameters()), "ranker should get no gradient"
print("ok: loss", loss.item(), "backpropagated to nothing")
