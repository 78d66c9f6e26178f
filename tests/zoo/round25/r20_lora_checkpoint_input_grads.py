"""
expect: none
dynamic: dismiss
source: https://github.com/victorchall/EveryDream2trainer/issues/172

The report is the checkpoint warning "None of the inputs have requires_grad=True.
Gradients will be None", seen when training with gradient checkpointing and a
frozen embedding layer. The usual fix, used here, registers a forward hook on the
frozen embedding that switches requires_grad on for its output, so the reentrant
checkpoint records a graph and the adapters inside the checkpointed blocks get
gradients. That requires_grad_ is on a fresh activation, not a replacement for a
lost path. The asserts check that the adapters get gradients with the hook and none
without it, and that the hooked gradients match a run without checkpointing.
"""
import copy
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

torch.manual_seed(0)
torch.set_num_threads(1)


class AdapterBlock(nn.Module):
    def __init__(self, d=16, r=4):
        super().__init__()
        self.base = nn.Linear(d, d)
        self.base.requires_grad_(False)
        self.down = nn.Linear(d, r, bias=False)
        self.up = nn.Linear(r, d, bias=False)
        nn.init.normal_(self.up.weight, std=0.1)

    def forward(self, h):
        return torch.tanh(self.base(h) + self.up(self.down(h)))


class TextEncoder(nn.Module):
    def __init__(self, vocab=40, d=16, n_blocks=3, use_ckpt=True):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.emb.requires_grad_(False)
        self.blocks = nn.ModuleList(AdapterBlock(d) for _ in range(n_blocks))
        self.proj = nn.Linear(d, d)
        self.use_ckpt = use_ckpt

    def enable_input_require_grads(self):
        def make_inputs_require_grads(module, inp, out):
            out.requires_grad_(True)
        return self.emb.register_forward_hook(make_inputs_require_grads)

    def forward(self, ids):
        h = self.emb(ids)
        for blk in self.blocks:
            h = checkpoint(blk, h, use_reentrant=True) if self.use_ckpt else blk(h)
        return self.proj(h.mean(1))


ids = torch.randint(0, 40, (8, 5))
target = torch.randn(8, 16)
base = TextEncoder()

plain = copy.deepcopy(base)
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    F.mse_loss(plain(ids), target).backward()
assert all(b.down.weight.grad is None for b in plain.blocks)
assert plain.proj.weight.grad is not None  # the run itself looks healthy

hooked = copy.deepcopy(base)
hooked.enable_input_require_grads()
F.mse_loss(hooked(ids), target).backward()

ref = copy.deepcopy(base)
ref.use_ckpt = False
F.mse_loss(ref(ids), target).backward()
for hb, rb in zip(hooked.blocks, ref.blocks):
    assert hb.down.weight.grad.abs().sum() > 0
    assert torch.allclose(hb.down.weight.grad, rb.down.weight.grad, atol=1e-6)
assert hooked.emb.weight.grad is None
print("ok")
