"""expect: GL001 66
dynamic: confirm
source: https://github.com/cloneofsimo/lora/issues/26

LoRA fine-tuning of a frozen denoiser with gradient checkpointing turned on, reduced to a 1-D toy: the base weights are
frozen and only the low-rank adapters (lora_down/lora_up, up initialised to zero) are trained. With checkpointing the
denoiser runs each block through torch.utils.checkpoint in its reentrant form. Because everything before the blocks is
frozen, the hidden state entering the checkpoint does not require grad, and the reentrant checkpoint then returns an
output that is cut from the graph: the adapters inside the blocks never get a gradient. A trainable adapter on the
conditioning path outside the checkpoint keeps the loss differentiable, so backward runs and training "works" while
the block adapters stay exactly at zero -- the symptom in the linked issue ("lora up" tensors all zeros after
training with --gradient_checkpointing). The asserts show None gradients and unchanged lora_up weights in the blocks
with checkpointing on, and non-zero updates for the same run without it.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

warnings.filterwarnings("ignore", message="None of the inputs have requires_grad=True")
torch.manual_seed(0)
torch.set_num_threads(1)


class LoRALinear(nn.Module):
    def __init__(self, d_in, d_out, rank=4):
        super().__init__()
        self.base = nn.Linear(d_in, d_out)
        self.base.requires_grad_(False)
        self.lora_down = nn.Linear(d_in, rank, bias=False)
        self.lora_up = nn.Linear(rank, d_out, bias=False)
        nn.init.zeros_(self.lora_up.weight)

    def forward(self, x):
        return self.base(x) + self.lora_up(self.lora_down(x))


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.proj = LoRALinear(dim, dim)
        self.norm.requires_grad_(False)

    def forward(self, h):
        return h + torch.tanh(self.proj(self.norm(h)))


class Denoiser(nn.Module):
    def __init__(self, dim=16, cond_dim=8, depth=3):
        super().__init__()
        self.inp = nn.Linear(1, dim)
        self.inp.requires_grad_(False)
        self.cond = LoRALinear(cond_dim, dim)
        self.blocks = nn.ModuleList(Block(dim) for _ in range(depth))
        self.outp = nn.Linear(dim, 1)
        self.outp.requires_grad_(False)
        self.gradient_checkpointing = False

    def forward(self, x, cond):
        h = self.inp(x.unsqueeze(-1))
        for blk in self.blocks:
            if self.gradient_checkpointing and self.training:
                h = checkpoint(blk, h, use_reentrant=True)
            else:
                h = blk(h)
        h = h + self.cond(cond).unsqueeze(1)
        return self.outp(h).squeeze(-1)


def lora_params(model):
    return [p for n, p in model.named_parameters() if "lora_" in n]


def finetune(gradient_checkpointing, steps=20):
    torch.manual_seed(0)
    model = Denoiser()
    model.gradient_checkpointing = gradient_checkpointing
    model.train()
    opt = torch.optim.AdamW(lora_params(model), lr=1e-2)
    up_before = [blk.proj.lora_up.weight.clone() for blk in model.blocks]
    torch.manual_seed(1)
    x0 = torch.randn(16, 32)
    cond = torch.randn(16, 8)
    first_grads = None
    for step in range(steps):
        noise = torch.randn_like(x0)
        x_t = 0.7 * x0 + 0.7 * noise
        opt.zero_grad()
        loss = F.mse_loss(model(x_t, cond), noise)
        loss.backward()
        if step == 0:
            first_grads = ([blk.proj.lora_up.weight.grad for blk in model.blocks], model.cond.lora_up.weight.grad)
        opt.step()
    up_after = [blk.proj.lora_up.weight for blk in model.blocks]
    return first_grads, up_before, up_after


(block_grads, cond_grad), before, after = finetune(gradient_checkpointing=True)
assert all(g is None for g in block_grads)
assert cond_grad is not None and cond_grad.abs().sum() > 0
assert all(torch.equal(b, a) for b, a in zip(before, after))

(block_grads, cond_grad), before, after = finetune(gradient_checkpointing=False)
assert all(g is not None and g.abs().sum() > 0 for g in block_grads)
assert all(not torch.equal(b, a) for b, a in zip(before, after))
print("checkpointed blocks: LoRA up weights never moved; without checkpointing they train")
