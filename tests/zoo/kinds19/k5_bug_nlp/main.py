"""
expect: GL001 contrastive.py:16
dynamic: confirm
source: kinds check 19, kind 5 (written for this check)

A dual-encoder passage retriever trains a query tower and a passage tower with one
optimizer. Its `QueryPassageNCE` loss inherits `_candidates()` from
`InBatchContrastive` (contrastive.py), which detaches the normalized embeddings, as
one would for a frozen or momentum key encoder; here the passages come from a tower
that should train, so the passage tower is starved. The asserts show the passage
tower's grads stay None and its weights never move, while the query tower trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from contrastive import InBatchContrastive


class BagEncoder(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens):
        return self.proj(self.emb(tokens))


class QueryPassageNCE(InBatchContrastive):
    def forward(self, q_vec, p_vec):
        logits = self._logits(self._anchor(q_vec), self._candidates(p_vec))
        return F.cross_entropy(logits, torch.arange(q_vec.shape[0]))


class Retriever(nn.Module):
    def __init__(self):
        super().__init__()
        self.query_tower, self.passage_tower = BagEncoder(), BagEncoder()
        self.loss_fn = QueryPassageNCE(temperature=0.1)

    def training_loss(self, queries, passages):
        return self.loss_fn(self.query_tower(queries), self.passage_tower(passages))


if __name__ == "__main__":
    torch.manual_seed(13)
    model = Retriever()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    queries, passages = torch.randint(0, 500, (24, 6)), torch.randint(0, 500, (24, 40))
    q0 = model.query_tower.proj.weight.clone()
    p0 = model.passage_tower.proj.weight.clone()
    for _ in range(3):
        opt.zero_grad(set_to_none=True)
        model.training_loss(queries, passages).backward()
        assert all(p.grad is None for p in model.passage_tower.parameters())
        opt.step()
    assert torch.equal(p0, model.passage_tower.proj.weight), "passage tower never moves"
    assert not torch.equal(q0, model.query_tower.proj.weight)
    # fixed: candidates keep their graph -> passage tower gets a gradient
    opt.zero_grad(set_to_none=True)
    q, p = model.query_tower(queries), model.passage_tower(passages)
    F.cross_entropy(F.normalize(q, dim=-1) @ F.normalize(p, dim=-1).t() / 0.1, torch.arange(24)).backward()
    assert all(p.grad is not None for p in model.passage_tower.parameters())
    print("k5_bug_nlp: inherited _candidates() starves the passage tower")
