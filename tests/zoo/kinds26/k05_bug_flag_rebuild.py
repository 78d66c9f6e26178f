"""
expect: GL002 25
dynamic: confirm
source: kinds check 26, kind 3

A recommender scorer: train_scorer(snapshot) passes its flag to an Adapter.
When snapshot is on, Adapter.adapt returns early with torch.tensor(emb), a
history-free copy of the user embeddings. The script runs train_scorer once
with True, and in that run the embedding table gets no gradient.
"""
import warnings

import torch
import torch.nn as nn

warnings.filterwarnings("ignore", category=UserWarning)


class Adapter:
    def __init__(self, snapshot):
        self.snapshot = snapshot

    def adapt(self, emb):
        if self.snapshot:
            return torch.tensor(emb)
        return emb * 1.0


def train_scorer(snapshot):
    torch.manual_seed(0)
    users = nn.Embedding(10, 6)
    scorer = nn.Sequential(nn.Linear(6, 8), nn.ReLU(), nn.Linear(8, 1))
    adapter = Adapter(snapshot)
    opt = torch.optim.SGD(list(users.parameters()) + list(scorer.parameters()), lr=0.1)
    ids = torch.randint(0, 10, (16,))
    clicks = torch.rand(16, 1)
    opt.zero_grad()
    feats = adapter.adapt(users(ids))
    loss = nn.functional.binary_cross_entropy_with_logits(scorer(feats), clicks)
    loss.backward()
    opt.step()
    return users.weight.grad


grad_snapshot = train_scorer(True)
grad_live = train_scorer(False)
assert grad_snapshot is None
assert grad_live is not None and grad_live.abs().sum() > 0
print("ok: snapshot=True leaves the embedding untrained")
