"""A frozen toy causal LM whose attention runs a fused kernel unless the eager path is requested."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, dim, attn_implementation="sdpa"):
        super().__init__()
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.attn_implementation = attn_implementation

    def _attn(self, q, k, v):
        n = q.shape[-2]
        scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
        causal = torch.ones(n, n, dtype=torch.bool).tril()
        weights = torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1)
        return weights @ v

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        if self.attn_implementation == "eager":
            out = self._attn(q, k, v)
        else:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.proj(out)


class Block(nn.Module):
    def __init__(self, dim, attn_implementation):
        super().__init__()
        self.ln = nn.LayerNorm(dim)
        self.attn = CausalSelfAttention(dim, attn_implementation)
        self.mlp = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(), nn.Linear(2 * dim, dim))

    def forward(self, x):
        x = x + self.attn(self.ln(x))
        return x + self.mlp(x)


class TinyLM(nn.Module):
    def __init__(self, vocab=40, dim=16, n_layers=2, attn_implementation="sdpa"):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim, attn_implementation) for _ in range(n_layers))
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        x = self.emb(ids)
        for layer in self.layers:
            x = layer(x)
        return self.head(x)
