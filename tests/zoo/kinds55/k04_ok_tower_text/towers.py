import torch
import torch.nn as nn


class SentenceTower(nn.Module):
    """Pretrained bag-of-embeddings sentence encoder."""

    def __init__(self, vocab=500, dim=48):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim, mode="mean")
        self.mix = nn.Linear(dim, dim)
        self.requires_grad_(False)

    def thaw(self):
        for p in self.parameters():
            p.requires_grad = True

    @torch.no_grad()
    def forward(self, token_ids):
        return torch.tanh(self.mix(self.emb(token_ids)))
