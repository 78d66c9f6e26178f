"""Tiny decoder LM with a frozen base, LoRA adapters and per-block activation checkpointing."""
import warnings

import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class LoRALinear(nn.Module):
    def __init__(self, d_in, d_out, rank=4, alpha=8.0):
        super().__init__()
        self.base = nn.Linear(d_in, d_out)
        self.lora_A = nn.Parameter(torch.randn(rank, d_in) * 0.1)
        self.lora_B = nn.Parameter(torch.randn(d_out, rank) * 0.1)
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + (x @ self.lora_A.t() @ self.lora_B.t()) * self.scale


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.q_proj = LoRALinear(d, d)
        self.v_proj = LoRALinear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, h):
        z = self.norm(h)
        h = h + torch.tanh(self.q_proj(z)) * self.v_proj(z)
        return h + self.mlp(self.norm(h))


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=50, d=16, n_layers=2, use_reentrant=True):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.blocks = nn.ModuleList(Block(d) for _ in range(n_layers))
        self.lm_head = nn.Linear(d, vocab)
        self.use_reentrant = use_reentrant
        self.gradient_checkpointing = True

    def freeze_base(self):
        # PEFT-style: everything frozen except the LoRA factors
        for name, p in self.named_parameters():
            p.requires_grad = "lora_" in name

    def forward(self, input_ids, labels):
        h = self.embed(input_ids)  # frozen embedding -> h does not require grad
        for blk in self.blocks:
            if self.gradient_checkpointing and self.training:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    h = checkpoint(blk, h, use_reentrant=self.use_reentrant)
            else:
                h = blk(h)
        logits = self.lm_head(h)
        return nn.functional.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1))
