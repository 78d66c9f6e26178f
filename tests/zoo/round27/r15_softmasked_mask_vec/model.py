import torch
import torch.nn as nn

MASK_ID = 1


class SoftMaskedCorrector(nn.Module):
    """Detector GRU predicts an error probability p per token; the corrector
    sees p * e[MASK] + (1 - p) * e(token) (soft masking), as in Soft-Masked BERT."""

    def __init__(self, vocab=30, dim=24, cache_mask=True):
        super().__init__()
        self.embedding = nn.Embedding(vocab, dim)
        self.detector = nn.GRU(dim, dim, batch_first=True)
        self.det_out = nn.Linear(dim, 1)
        self.corrector = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, dim))
        self.lm_head = nn.Linear(dim, vocab)
        self.cache_mask = cache_mask
        if cache_mask:
            # embedding of the [MASK] token, computed once and reused every step
            self.mask_e = self.embedding(torch.tensor([[MASK_ID]]))

    def mask_vector(self):
        if self.cache_mask:
            return self.mask_e
        return self.embedding(torch.tensor([[MASK_ID]]))

    def forward(self, ids):
        e = self.embedding(ids)
        h, _ = self.detector(e)
        p = torch.sigmoid(self.det_out(h))
        e_soft = p * self.mask_vector() + (1 - p) * e
        out = self.corrector(e_soft) + e
        return self.lm_head(out), p.squeeze(-1)
