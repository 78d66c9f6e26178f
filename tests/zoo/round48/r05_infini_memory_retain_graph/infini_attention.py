"""Toy Infini-attention LM: local attention per segment plus a compressive memory passed between segments."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class InfiniAttention(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)
        self.o = nn.Linear(d, d)
        self.gate = nn.Parameter(torch.zeros(1))

    def forward(self, x, memory, norm_term):
        q, k, v = self.q(x), self.k(x), self.v(x)
        sq, sk = F.elu(q) + 1, F.elu(k) + 1
        T = x.size(1)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        local = torch.softmax((q @ k.transpose(1, 2)).masked_fill(~causal, -1e9) / 4.0, -1) @ v
        if memory is None:
            retrieved = torch.zeros_like(local)
            memory = sk.transpose(1, 2) @ v
            norm_term = sk.sum(1, keepdim=True)
        else:
            retrieved = (sq @ memory) / (sq * norm_term).sum(-1, keepdim=True)
            memory = memory + sk.transpose(1, 2) @ v          # keeps the whole history of memory
            norm_term = norm_term + sk.sum(1, keepdim=True)
        g = torch.sigmoid(self.gate)
        return self.o(g * retrieved + (1 - g) * local), memory, norm_term


class InfiniLM(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.attn = InfiniAttention(d)
        self.head = nn.Linear(d, vocab)

    def forward(self, ids, labels, memory=None, norm_term=None):
        h, memory, norm_term = self.attn(self.emb(ids), memory, norm_term)
        logits = self.head(h)
        loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
        return loss, memory, norm_term
