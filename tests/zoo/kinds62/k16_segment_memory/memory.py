import math

import torch
import torch.nn as nn


class SlotMemory(nn.Module):
    """A handful of memory slots written from one segment and read by the next."""

    def __init__(self, dim, n_slots, batch_size):
        super().__init__()
        self.dim, self.n_slots = dim, n_slots
        self.writer = nn.Linear(dim, n_slots * dim)
        self.register_buffer("slots", torch.zeros(batch_size, n_slots, dim))

    def reset(self):
        self.slots.zero_()

    def summarize(self, hidden):
        pooled = hidden.mean(dim=1)
        return torch.tanh(self.writer(pooled)).view(-1, self.n_slots, self.dim)

    def write(self, hidden):
        summary = self.summarize(hidden)
        with torch.no_grad():
            self.slots.copy_(summary)

    def read(self, query, slots=None):
        slots = self.slots if slots is None else slots
        scores = torch.einsum("bd,bsd->bs", query, slots) / math.sqrt(self.dim)
        return torch.einsum("bs,bsd->bd", scores.softmax(dim=-1), slots)
