"""Soft-Masked corrector: detector probabilities blend each token embedding with the [MASK] embedding."""
import torch
import torch.nn as nn


class Embeddings(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.word = nn.Embedding(vocab, dim)
        self.norm = nn.LayerNorm(dim)

    def forward(self, ids):
        return self.norm(self.word(ids))


class SoftMaskedCorrector(nn.Module):
    def __init__(self, vocab=50, dim=16, mask_id=3):
        super().__init__()
        self.embeddings = Embeddings(vocab, dim)
        self.detector = nn.GRU(dim, dim // 2, batch_first=True, bidirectional=True)
        self.det_out = nn.Linear(dim, 1)
        self.corrector = nn.Sequential(nn.Linear(dim, dim), nn.GELU())
        self.out = nn.Linear(dim, vocab)
        self.mask_e = self.embeddings(torch.tensor([[mask_id]]))

    def forward(self, ids):
        e = self.embeddings(ids)
        h, _ = self.detector(e)
        p = torch.sigmoid(self.det_out(h))
        e_soft = p * self.mask_e + (1 - p) * e
        return self.out(self.corrector(e_soft) + e), p.squeeze(-1)
