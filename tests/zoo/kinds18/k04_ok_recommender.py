"""
expect: none
dynamic: dismiss
source: kind 4

A session recommender scores the catalogue, keeps the top-k items with
torch.topk, and returns (indices.detach(), weights) where the weights are the
straight-through 1 - values.detach() + values. The pooled top-k item
embeddings are multiplied by those weights, so the scorer receives gradient
through the values. The asserts show the scorer's weights get non-zero grads
and change, and the loss falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def select_topk(scores, k):
    values, indices = torch.topk(scores, k, dim=-1)
    return indices.detach(), 1 - values.detach() + values


class TopKSessionModel(nn.Module):
    def __init__(self, n_items=200, dim=24, k=5):
        super().__init__()
        self.k = k
        self.item_emb = nn.Embedding(n_items, dim)
        self.scorer = nn.Linear(dim, n_items)
        self.head = nn.Linear(dim, 1)

    def forward(self, session_vec):
        scores = torch.sigmoid(self.scorer(session_vec))
        idx, w = select_topk(scores, self.k)
        pooled = (self.item_emb(idx) * w.unsqueeze(-1)).sum(1) / self.k
        return self.head(pooled).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TopKSessionModel()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    s0 = model.scorer.weight.detach().clone()
    sessions = torch.randn(256, 24)
    clicked = (sessions[:, 0] > 0).float()
    losses = []
    for step in range(200):
        loss = F.binary_cross_entropy_with_logits(model(sessions), clicked)
        opt.zero_grad()
        loss.backward()
        if step == 0:
            assert model.scorer.weight.grad is not None
            assert model.scorer.weight.grad.abs().sum() > 0
        opt.step()
        losses.append(loss.item())
    assert not torch.equal(s0, model.scorer.weight.detach())
    assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
    print("ok: scorer trains through straight-through top-k weights", losses[0], losses[-1])
