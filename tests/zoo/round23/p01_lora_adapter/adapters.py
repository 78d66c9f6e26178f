"""Adapter helpers: wrap a base layer with a low-rank adapter and load pretrained adapter weights."""
import torch
import torch.nn as nn


class LowRankLinear(nn.Module):
    def __init__(self, base: nn.Linear, rank: int = 4):
        super().__init__()
        self.base = base
        self.lora_a = nn.Parameter(torch.randn(rank, base.in_features) * 0.1)
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, rank))

    def forward(self, x):
        return self.base(x) + (x @ self.lora_a.t()) @ self.lora_b.t()


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=40, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.mix = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(torch.tanh(self.mix(self.embed(ids))))


def attach_adapter(model, rank=4):
    model.mix = LowRankLinear(model.mix, rank)
    for name, p in model.named_parameters():
        p.requires_grad = "lora_" in name
    return model


def load_pretrained_adapter(model, adapter_state, rank=4):
    """Load adapter weights from a local path / hub checkpoint.

    Like an adapter library's from_pretrained() with its default inference mode,
    the loaded adapter is returned frozen."""
    model = attach_adapter(model, rank)
    model.load_state_dict(adapter_state, strict=False)
    for p in model.parameters():
        p.requires_grad_(False)
    return model
