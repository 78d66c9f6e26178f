"""Tiny ESM-style protein LM with a QLoRA-like frozen 4-bit base projection + LoRA adapters."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MatMul4Bit(torch.autograd.Function):
    """Matmul against a frozen, 4-bit-quantised weight (dequantised on the fly)."""

    @staticmethod
    def forward(ctx, x, qweight, scale):
        w = qweight.float() * scale
        ctx.save_for_backward(w)
        out = x.reshape(-1, x.size(-1)) @ w.t()
        return out.view(*x.shape[:-1], w.size(0))

    @staticmethod
    def backward(ctx, grad_out):
        (w,) = ctx.saved_tensors
        g = grad_out.reshape(-1, grad_out.size(-1)) @ w
        return g.view(*grad_out.shape[:-1], w.size(1)), None, None


class Linear4bitLoRA(nn.Module):
    def __init__(self, d_in, d_out, r=4):
        super().__init__()
        w = torch.randn(d_out, d_in) / d_in ** 0.5
        scale = w.abs().max() / 7
        self.register_buffer("qweight", torch.round(w / scale).clamp(-8, 7).to(torch.int8))
        self.register_buffer("scale", scale)
        self.lora_A = nn.Parameter(torch.randn(r, d_in) * 0.01)
        self.lora_B = nn.Parameter(torch.zeros(d_out, r))

    def forward(self, x):
        base = MatMul4Bit.apply(x, self.qweight, self.scale)
        return base + x @ self.lora_A.t() @ self.lora_B.t()

    def base_only(self, x):
        return MatMul4Bit.apply(x, self.qweight, self.scale)


class EsmSelfAttention(nn.Module):
    def __init__(self, d, n_heads=4, inplace_scaling=True):
        super().__init__()
        self.h, self.dh = n_heads, d // n_heads
        self.scaling = self.dh ** -0.5
        self.inplace_scaling = inplace_scaling
        self.query = Linear4bitLoRA(d, d)
        self.key = nn.Linear(d, d)
        self.value = nn.Linear(d, d)

    def forward(self, x):
        B, L, D = x.shape
        q = self.query.base_only(x)
        if self.inplace_scaling:
            q *= self.scaling
        else:
            q = q * self.scaling
        q = q + (x @ self.query.lora_A.t() @ self.query.lora_B.t()) * self.scaling
        k, v = self.key(x), self.value(x)
        q, k, v = (t.view(B, L, self.h, self.dh).transpose(1, 2) for t in (q, k, v))
        att = torch.softmax(q @ k.transpose(-1, -2), -1)
        return (att @ v).transpose(1, 2).reshape(B, L, D)


class TinyEsm(nn.Module):
    def __init__(self, vocab=25, d=32, inplace_scaling=True):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.embed_positions = nn.Embedding(64, d)
        self.attn = EsmSelfAttention(d, inplace_scaling=inplace_scaling)
        self.ln = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab)
        for p in self.embed_tokens.parameters():
            p.requires_grad_(False)            # frozen pretrained embedding table

    def forward(self, tokens):
        x = self.embed_tokens(tokens) + self.embed_positions(torch.arange(tokens.size(1)))
        x = x + self.attn(self.ln(x))
        return self.lm_head(x)


def mlm_loss(model, tokens, mask_idx=24, p=0.15):
    mask = torch.rand(tokens.shape) < p
    inp = tokens.masked_fill(mask, mask_idx)
    logits = model(inp)
    return F.cross_entropy(logits[mask], tokens[mask])
