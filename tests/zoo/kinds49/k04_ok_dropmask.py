"""
expect: none
dynamic: dismiss
source: kinds check 49, kind 2

A recurrent tagger uses a fixed-per-step feature mask stored as a buffer
(`h * self.mask`); `redraw_mask()` refills the buffer in place through
`.data`. The training loop only redraws the mask after `optimizer.step()`,
so every backward sees the mask its forward used and the gradient matches a
reference computed with that mask.
"""
import torch
import torch.nn as nn


class MaskedEncoder(nn.Module):
    def __init__(self, d, p=0.3):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.p = p
        self.register_buffer("mask", torch.ones(d))

    def forward(self, h):
        return torch.tanh(self.proj(h)) * self.mask

    def redraw_mask(self):
        self.mask.data.copy_((torch.rand_like(self.mask) > self.p).float() / (1 - self.p))


torch.manual_seed(3)
enc = MaskedEncoder(10)
cls = nn.Linear(10, 3)
opt = torch.optim.SGD(list(enc.parameters()) + list(cls.parameters()), lr=0.1)
enc.redraw_mask()
for step in range(5):
    tokens = torch.randn(16, 10)
    tags = torch.randint(0, 3, (16,))
    used_mask = enc.mask.clone()
    loss = nn.functional.cross_entropy(cls(enc(tokens)), tags)
    opt.zero_grad()
    loss.backward()
    w = enc.proj.weight.detach().clone().requires_grad_(True)
    ref = nn.functional.cross_entropy(
        cls(torch.tanh(tokens @ w.t() + enc.proj.bias) * used_mask), tags)
    (gw,) = torch.autograd.grad(ref, w)
    assert torch.allclose(enc.proj.weight.grad, gw, atol=1e-6)
    opt.step()
    enc.redraw_mask()
print("ok: gradients match the mask used in each forward")
