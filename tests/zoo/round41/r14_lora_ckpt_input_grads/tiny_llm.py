"""A tiny frozen decoder with LoRA adapters and reentrant gradient checkpointing."""
import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=8.0):
        super().__init__()
        self.base = base
        self.lora_A = nn.Parameter(torch.randn(rank, base.in_features) * 0.1)
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj = LoRALinear(nn.Linear(dim, dim))
        self.ff = nn.Linear(dim, dim)

    def forward(self, h):
        return h + self.ff(torch.tanh(self.proj(self.norm(h))))


class TinyDecoder(nn.Module):
    def __init__(self, vocab=50, dim=32, n_blocks=3):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList(Block(dim) for _ in range(n_blocks))
        self.gradient_checkpointing = True

    def forward(self, ids):
        h = self.embed_tokens(ids)
        for block in self.blocks:
            if self.gradient_checkpointing and self.training:
                h = checkpoint(block, h, use_reentrant=True)
            else:
                h = block(h)
        return h

    def get_input_embeddings(self):
        return self.embed_tokens


def freeze_all_but_lora(model):
    for name, p in model.named_parameters():
        p.requires_grad_("lora_" in name)


def enable_input_require_grads(model):
    def make_inputs_require_grads(module, inputs, output):
        output.requires_grad_(True)

    return model.get_input_embeddings().register_forward_hook(make_inputs_require_grads)
