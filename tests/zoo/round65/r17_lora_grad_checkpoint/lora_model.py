"""LoRA layers (loralib-style) and a small encoder that supports gradient checkpointing."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint


class LoRALinear(nn.Linear):
    def __init__(self, in_features, out_features, r=4, lora_alpha=8):
        super().__init__(in_features, out_features)
        self.lora_A = nn.Parameter(torch.zeros(r, in_features))
        self.lora_B = nn.Parameter(torch.zeros(out_features, r))
        self.scaling = lora_alpha / r
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B)

    def forward(self, x):
        result = F.linear(x, self.weight, self.bias)
        return result + (x @ self.lora_A.T @ self.lora_B.T) * self.scaling


def mark_only_lora_as_trainable(model, keep=("classifier",)):
    for name, p in model.named_parameters():
        p.requires_grad = "lora_" in name or any(k in name for k in keep)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc1 = LoRALinear(dim, 2 * dim)
        self.fc2 = LoRALinear(2 * dim, dim)

    def forward(self, h):
        return h + self.fc2(F.gelu(self.fc1(h)))


class Encoder(nn.Module):
    def __init__(self, vocab=50, dim=32, depth=2, n_classes=2):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.classifier = nn.Linear(dim, n_classes)
        self.gradient_checkpointing = False
        self.use_reentrant = True

    def forward(self, tokens):
        h = self.embed(tokens)
        for block in self.blocks:
            if self.gradient_checkpointing and self.training:
                h = checkpoint(block, h, use_reentrant=self.use_reentrant)
            else:
                h = block(h)
        return self.classifier(h.mean(1))
