import torch
import torch.nn as nn


class LoRALinear(nn.Module):
    """Frozen base projection plus a trainable low-rank update."""

    def __init__(self, base: nn.Linear, rank=4, alpha=8.0, fuse_as_buffer=True):
        super().__init__()
        self.base = base
        for p in self.base.parameters():
            p.requires_grad_(False)
        self.A = nn.Parameter(torch.randn(rank, base.in_features) * 0.1)
        self.B = nn.Parameter(torch.randn(base.out_features, rank) * 0.1)
        self.scale = alpha / rank
        self.fuse_as_buffer = fuse_as_buffer

    def low_rank_delta(self, x):
        delta = (x @ self.A.t()) @ self.B.t() * self.scale
        if self.fuse_as_buffer:
            # materialise the update as a plain tensor before adding it to the base output
            delta = torch.tensor(delta.tolist(), dtype=x.dtype)
        return delta

    def forward(self, x):
        return self.base(x) + self.low_rank_delta(x)


def inject_lora(model: nn.Module, names, **kw):
    for name in names:
        setattr(model, name, LoRALinear(getattr(model, name), **kw))
    return model
