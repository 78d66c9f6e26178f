"""A tiny stand-in for a sentence-transformers style CrossEncoder.

`PairScorer` is the trainable network (what `CrossEncoder.model` is), and
`TinyCrossEncoder.predict` is the convenience scoring call, which - like the
library's - switches to eval mode and runs without gradient tracking.
"""
import torch
from torch import nn


class PairScorer(nn.Module):
    def __init__(self, vocab_size=40, dim=16):
        super().__init__()
        self.tokens = nn.Embedding(vocab_size, dim)
        self.segment = nn.Embedding(2, dim)
        self.classifier = nn.Linear(dim, 1)

    def forward(self, query_ids, doc_ids):
        q = self.tokens(query_ids) + self.segment.weight[0]
        d = self.tokens(doc_ids) + self.segment.weight[1]
        pooled = torch.cat([q, d], dim=1).mean(dim=1)
        return self.classifier(torch.tanh(pooled)).squeeze(-1)


class TinyCrossEncoder:
    def __init__(self, vocab_size=40, dim=16):
        self.model = PairScorer(vocab_size, dim)

    @torch.no_grad()
    def predict(self, pairs):
        """Score (query, passage) pairs; returns one logit per pair."""
        query_ids, doc_ids = pairs
        was_training = self.model.training
        self.model.eval()
        scores = self.model(query_ids, doc_ids)
        self.model.train(was_training)
        return scores


def make_batches(n_batches=12, batch_size=16, vocab_size=40, seed=0):
    """Relevant passages use the lower half of the vocabulary, irrelevant ones the upper half."""
    g = torch.Generator().manual_seed(seed)
    half = vocab_size // 2
    batches = []
    for _ in range(n_batches):
        labels = torch.randint(0, 2, (batch_size,), generator=g).float()
        queries = torch.randint(0, vocab_size, (batch_size, 4), generator=g)
        low = torch.randint(0, half, (batch_size, 6), generator=g)
        high = torch.randint(half, vocab_size, (batch_size, 6), generator=g)
        docs = torch.where(labels[:, None] > 0, low, high)
        batches.append(((queries, docs), labels))
    return batches
