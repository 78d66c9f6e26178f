"""Gradient-cached in-batch contrastive step for kinds check 24, kind 9 (see main.py)."""
import torch
import torch.nn.functional as F


def in_batch_nce(q, d, temperature=0.05):
    scores = F.normalize(q, dim=-1) @ F.normalize(d, dim=-1).t() / temperature
    return F.cross_entropy(scores, torch.arange(q.size(0)))


class CachedContrastiveStep:
    def __init__(self, encoder, chunk_size):
        self.encoder = encoder
        self.chunk_size = chunk_size

    def embed_without_graph(self, tokens):
        with torch.no_grad():
            return torch.cat([self.encoder(c) for c in tokens.split(self.chunk_size)])

    def __call__(self, queries, passages):
        texts = torch.cat([queries, passages])
        reps = self.embed_without_graph(texts).detach().requires_grad_()
        q_reps, p_reps = reps.split(queries.size(0))
        loss = in_batch_nce(q_reps, p_reps)
        loss.backward()
        return loss.detach(), reps.grad
