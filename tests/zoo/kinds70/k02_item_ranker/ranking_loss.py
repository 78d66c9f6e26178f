"""
expect: GL002 ranking_loss.py:20
dynamic: confirm
source: none, invented

Loss for a two-tower recommendation model: a BPR pairwise ranking term plus a "spread" regulariser meant to keep
the user embeddings from collapsing (penalise low per-dimension variance). The regulariser is computed with NumPy
on `features.detach().cpu().numpy()`, so it is a plain Python float; adding it to the tensor loss changes the
reported loss value but contributes no gradient at all. This is a bug: the embeddings are never pushed apart.
"""
import numpy as np
import torch
import torch.nn.functional as F


def ranking_loss(pos_scores, neg_scores, features, spread_weight=0.5):
    task = -F.logsigmoid(pos_scores - neg_scores).mean()
    feats = features.detach().cpu().numpy()
    spread = float(np.mean(1.0 / (feats.var(axis=0) + 1e-3)))
    total = task + spread_weight * spread
    return total, task
