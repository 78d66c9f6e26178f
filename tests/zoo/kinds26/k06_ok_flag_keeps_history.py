"""
expect: none
dynamic: dismiss
source: kinds check 26, kind 3

Same recommender scorer and Adapter with the snapshot branch that rebuilds
via torch.tensor, but the script only ever calls train_scorer(False), so the
early-return rebuild never runs and the embedding table is trained.
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


grad_first = train_scorer(False)
grad_second = train_scorer(False)
assert grad_first is not None and grad_first.abs().sum() > 0
assert torch.allclose(grad_first, grad_second)
print("ok: embedding always trained")
