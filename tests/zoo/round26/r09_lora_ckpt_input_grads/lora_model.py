"""Tiny causal LM with frozen base weights, LoRA adapters and optional checkpointing."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class LoRALinear(nn.Module):
    def __init__(self, d_in, d_out, r=4, alpha=8):
        super().__init__()
        self.base = nn.Linear(d_in, d_out)
        self.base.requires_grad_(False)
        self.lora_A = nn.Parameter(torch.randn(r, d_in) * 0.1)
        self.lora_B = nn.Parameter(torch.zeros(d_out, r))
        self.scale = alpha / r

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ff1 = LoRALinear(d, 4 * d)
        self.ff2 = LoRALinear(4 * d, d)

    def forward(self, h):
        return h + self.ff2(F.gelu(self.ff1(h)))


class TinyLM(nn.Module):
    def __init__(self, vocab=50, d=16, n_layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.embed.requires_grad_(False)
        self.blocks = nn.ModuleList(Block(d) for _ in range(n_layers))
        self.head = nn.Linear(d, vocab)
        self.head.requires_grad_(False)
        self.gradient_checkpointing = False

    def enable_input_require_grads(self):
        def make_inputs_require_grads(module, inputs, output):
            output.requires_grad_(True)
        return self.embed.register_forward_hook(make_inputs_require_grads)

    def forward(self, ids):
        h = self.embed(ids)
        for block in self.blocks:
            if self.gradient_checkpointing and self.training:
                h = checkpoint(block, h, use_reentrant=True)
            else:
                h = block(h)
        return self.head(h)
