"""Review sentiment classifier on top of frozen pretrained word vectors."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ReviewClassifier(nn.Module):
    def __init__(self, vectors, hidden=32):
        super().__init__()
        vocab, dim = vectors.shape
        self.embedding = nn.Embedding(vocab, dim, padding_idx=0)
        self.embedding.weight.data.copy_(vectors)
        # the pretrained vectors are shared with other services: keep them fixed
        self.embedding.requires_grad_(False)
        self.encoder = nn.Sequential(nn.Linear(dim, hidden), nn.ReLU())
        self.out = nn.Linear(hidden, 2)

    @torch.no_grad()
    def pooled_embedding(self, tokens):
        mask = (tokens != 0).float().unsqueeze(-1)
        summed = (self.embedding(tokens) * mask).sum(1)
        return summed / mask.sum(1).clamp_min(1.0)

    def forward(self, tokens):
        return self.out(self.encoder(self.pooled_embedding(tokens)))

    def objective(self, tokens, labels):
        return F.cross_entropy(self(tokens), labels)
