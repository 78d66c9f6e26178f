"""
expect: GL001 text_strategy.py:10, GL001 text_strategy.py:11
dynamic: confirm
source: https://github.com/kohya-ss/sd-scripts/commit/db2b4d41b9637cffd40a694c8e25847446a57aad

LoRA training for an SD3-like model: LoRA adapters are attached both to the MMDiT denoiser and to the
two CLIP text encoders, and one optimizer holds all of them. The text-encoding strategy runs both
encoders inside torch.no_grad(), so the text conditioning reaching the denoiser carries no history.
The flow-matching loss still has a graph through the denoiser's LoRA, so training runs without any
error, but the text-encoder LoRA weights never get a gradient and never move ("Text Encoders LoRA
not trained", fixed upstream by removing the no_grad). The asserts show grad None and unchanged
text-encoder LoRA weights with the original strategy, and non-zero gradients and moving weights once
the encoders run with autograd enabled.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from text_strategy import Sd3TextEncodingStrategy, Sd3TextEncodingStrategyFixed

torch.manual_seed(0)
torch.set_num_threads(1)


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, rank=4, alpha=4.0):
        super().__init__()
        self.base = base.requires_grad_(False)
        self.lora_down = nn.Linear(base.in_features, rank, bias=False)
        self.lora_up = nn.Linear(rank, base.out_features, bias=False)
        nn.init.zeros_(self.lora_up.weight)
        self.scale = alpha / rank

    def forward(self, x):
        return self.base(x) + self.lora_up(self.lora_down(x)) * self.scale


class TinyCLIP(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim).requires_grad_(False)
        self.mlp = LoRALinear(nn.Linear(dim, dim))

    def forward(self, tokens):
        h = torch.tanh(self.mlp(self.tok(tokens)))
        return h, h.mean(1)


class TinyMMDiT(nn.Module):
    def __init__(self, latent, ctx):
        super().__init__()
        self.ctx_proj = LoRALinear(nn.Linear(ctx, 32))
        self.in_proj = LoRALinear(nn.Linear(latent + 1 + ctx, 32))
        self.out = LoRALinear(nn.Linear(32, latent))

    def forward(self, x, t, context, pooled):
        c = self.ctx_proj(context).mean(1)
        h = torch.relu(self.in_proj(torch.cat([x, t[:, None], pooled], -1)) + c)
        return self.out(h)


def lora_params(module):
    return [p for n, p in module.named_parameters() if "lora_" in n]


def train(strategy_cls, steps=20):
    torch.manual_seed(0)
    clip_l, clip_g = TinyCLIP(50, 8), TinyCLIP(50, 12)
    dit = TinyMMDiT(latent=6, ctx=20)
    te_params = lora_params(clip_l) + lora_params(clip_g)
    dit_params = lora_params(dit)
    opt = torch.optim.AdamW(te_params + dit_params, lr=1e-2)
    te_start = [p.detach().clone() for p in te_params]
    dit_start = [p.detach().clone() for p in dit_params]
    strategy = strategy_cls()
    tokens = (torch.randint(0, 50, (8, 5)), torch.randint(0, 50, (8, 5)))
    latents = torch.randn(8, 6)
    first_te_grads = None
    for step in range(steps):
        opt.zero_grad()
        context, pooled = strategy.encode_tokens((clip_l, clip_g), tokens)
        t = torch.rand(8)
        noise = torch.randn_like(latents)
        noisy = (1 - t[:, None]) * latents + t[:, None] * noise
        loss = F.mse_loss(dit(noisy, t, context, pooled), noise - latents)
        loss.backward()
        if step == 0:
            first_te_grads = [p.grad for p in te_params]
        opt.step()
    te_moved = any(not torch.equal(a, b) for a, b in zip(te_start, te_params))
    dit_moved = any(not torch.equal(a, b) for a, b in zip(dit_start, dit_params))
    return first_te_grads, te_moved, dit_moved


grads, te_moved, dit_moved = train(Sd3TextEncodingStrategy)
assert all(g is None for g in grads)
assert not te_moved and dit_moved

grads, te_moved, dit_moved = train(Sd3TextEncodingStrategyFixed)
assert any(g is not None and g.abs().sum() > 0 for g in grads)
assert te_moved and dit_moved
print("no_grad text encoding: TE LoRA frozen in place; with autograd both TE and DiT LoRA train")
