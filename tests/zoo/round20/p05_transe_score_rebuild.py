"""
expect: GL002 48
expect: GL002 49
dynamic: confirm
source: https://github.com/SmartDataAnalytics/PyKEEN/pull/64

A knowledge-graph-embedding package computed TransE scores from the embedding tables and then,
in the shared `_compute_loss`, rebuilt them with `torch.tensor(positive_scores, ...)` before the
margin ranking loss. The PR notes this stopped working on PyTorch 1.1 ("element 0 of tensors does
not require grad"); before that the code ran, but a rebuilt copy is a new leaf, so whatever
gradient backward produced stopped at the copy. This program writes the copy with
requires_grad=True, which keeps that old behaviour runnable, and asserts the loss backpropagates,
the copies get gradients, and the entity/relation embeddings get none and stay put, while
passing the scores straight through trains them.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
N_ENT, N_REL, DIM = 30, 4, 16


class TransE(nn.Module):
    def __init__(self, rebuild=True, margin=1.0):
        super().__init__()
        self.entity_embeddings = nn.Embedding(N_ENT, DIM)
        self.relation_embeddings = nn.Embedding(N_REL, DIM)
        self.criterion = nn.MarginRankingLoss(margin=margin)
        self.rebuild = rebuild
        self.last_scores = None

    def _score_triples(self, triples):
        h = self.entity_embeddings(triples[:, 0])
        r = self.relation_embeddings(triples[:, 1])
        t = self.entity_embeddings(triples[:, 2])
        return torch.norm(h + r - t, p=1, dim=1)

    def forward(self, positives, negatives):
        positive_scores = self._score_triples(positives)
        negative_scores = self._score_triples(negatives)
        return self._compute_loss(positive_scores, negative_scores)

    def _compute_loss(self, positive_scores, negative_scores):
        y = torch.tensor(np.repeat([-1], repeats=positive_scores.shape[0]), dtype=torch.float)
        if self.rebuild:
            positive_scores = torch.tensor(positive_scores, dtype=torch.float, requires_grad=True)
            negative_scores = torch.tensor(negative_scores, dtype=torch.float, requires_grad=True)
            self.last_scores = (positive_scores, negative_scores)
        return self.criterion(positive_scores, negative_scores, y)


def train(rebuild, steps=30):
    torch.manual_seed(4)
    model = TransE(rebuild=rebuild)
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    e0 = model.entity_embeddings.weight.detach().clone()
    pos = torch.stack([torch.randint(0, N_ENT, (64,)), torch.randint(0, N_REL, (64,)),
                       torch.randint(0, N_ENT, (64,))], dim=1)
    losses = []
    for _ in range(steps):
        neg = pos.clone()
        neg[:, 2] = torch.randint(0, N_ENT, (64,))
        loss = model(pos, neg)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    moved = (model.entity_embeddings.weight.detach() - e0).abs().max().item()
    return model, moved, losses


import warnings
warnings.simplefilter("ignore", UserWarning)
model, moved, losses = train(rebuild=True)
print(f"reported: embeddings moved {moved:.1e}, loss {losses[0]:.3f} -> {losses[-1]:.3f}")
assert model.entity_embeddings.weight.grad is None and model.relation_embeddings.weight.grad is None
assert model.last_scores[0].grad is not None, "the rebuilt copies are what receive the gradient"
assert moved == 0.0

_, moved_f, losses_f = train(rebuild=False)
print(f"fixed: embeddings moved {moved_f:.1e}, loss {losses_f[0]:.3f} -> {losses_f[-1]:.3f}")
assert moved_f > 1e-3 and losses_f[-1] < losses_f[0]
print("OK")
