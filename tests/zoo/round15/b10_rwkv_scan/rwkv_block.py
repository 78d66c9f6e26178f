"""A minimal RWKV-style time-mixing block evaluated as a recurrent scan."""
import torch
import torch.nn as nn


class TimeMix(nn.Module):
    def __init__(self, dim, write_state_in_place=True):
        super().__init__()
        self.key = nn.Linear(dim, dim, bias=False)
        self.value = nn.Linear(dim, dim, bias=False)
        self.receptance = nn.Linear(dim, dim, bias=False)
        self.time_decay = nn.Parameter(torch.full((dim,), -0.5))
        self.output = nn.Linear(dim, dim, bias=False)
        self.in_place = write_state_in_place

    def scan(self, k, v):
        batch, steps, dim = k.shape
        decay = torch.exp(-torch.exp(self.time_decay))
        state = torch.zeros(batch, 2, dim)
        outs = []
        for t in range(steps):
            num, den = state[:, 0], state[:, 1]
            ek = torch.exp(k[:, t])
            outs.append((num + ek * v[:, t]) / (den + ek))
            if self.in_place:
                state[:] = torch.stack([num * decay + ek * v[:, t], den * decay + ek], dim=1)
            else:
                state = torch.stack([num * decay + ek * v[:, t], den * decay + ek], dim=1)
        return torch.stack(outs, dim=1)

    def forward(self, x):
        k = self.key(x).clamp(-5, 5)
        v = self.value(x)
        r = torch.sigmoid(self.receptance(x))
        return self.output(r * self.scan(k, v))


class TinyRWKV(nn.Module):
    def __init__(self, vocab=20, dim=8, write_state_in_place=True):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.mix = TimeMix(dim, write_state_in_place)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        x = self.emb(ids)
        return self.head(x + self.mix(x))
