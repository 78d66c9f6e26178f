"""
expect: none
dynamic: dismiss
source: kinds check 22, kind 2 (written for this check)

A matrix-factorisation recommender computes a NumPy hit-rate from .detach().numpy()
scores only for logging, and NumPy inverse-popularity weights from the item ids (data)
that scale a per-sample tensor loss. The asserts show the embeddings get nonzero grads.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MF(nn.Module):
    def __init__(self, n_users=20, n_items=30, dim=8):
        super().__init__()
        self.U = nn.Embedding(n_users, dim)
        self.I = nn.Embedding(n_items, dim)

    def forward(self, u, i):
        return (self.U(u) * self.I(i)).sum(-1)


def train_step(model, users, items, clicks, item_counts, log):
    scores = model(users, items)
    hit = float(np.mean((scores.detach().numpy() > 0) == (clicks.numpy() > 0.5)))
    log.append(hit)
    w_np = 1.0 / np.sqrt(item_counts[items.numpy()])
    w = torch.from_numpy(w_np / w_np.mean()).float()
    per_sample = F.binary_cross_entropy_with_logits(scores, clicks, reduction="none")
    loss = (w * per_sample).mean()
    loss.backward()
    return loss


torch.manual_seed(4)
users = torch.randint(0, 20, (64,))
items = torch.randint(0, 30, (64,))
clicks = torch.randint(0, 2, (64,)).float()
counts = np.bincount(items.numpy(), minlength=30).astype(np.float64) + 1.0
rec, log = MF(), []
train_step(rec, users, items, clicks, counts, log)
assert rec.U.weight.grad.abs().sum() > 0 and rec.I.weight.grad.abs().sum() > 0
print("ok: embeddings train, hit rate", log[-1])
