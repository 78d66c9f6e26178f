"""Frozen CLIP-like text encoder with a learnable placeholder embedding spliced in."""
import torch
import torch.nn as nn


class TinyTextEncoder(nn.Module):
    def __init__(self, vocab=20, dim=16):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.requires_grad_(False)

    def forward(self, tokens, placeholder_id, learned_vec):
        emb = self.token_embedding(tokens)
        is_ph = (tokens == placeholder_id).unsqueeze(-1)
        emb = torch.where(is_ph, learned_vec.expand_as(emb), emb)
        return self.mlp(emb).mean(dim=1)


def get_conditioning(encoder, tokens, placeholder_id, learned_vec, medvram=True):
    if medvram:
        with torch.no_grad():
            cond = encoder(tokens, placeholder_id, learned_vec)
    else:
        cond = encoder(tokens, placeholder_id, learned_vec)
    return cond
