"""
expect: GL005 28
dynamic: confirm
source: kinds check 20, kind 2 (written for this check)

A 1-D heat-equation surrogate builds `conv = nn.Conv1d(...)` as a local name and
wraps it in `nn.Sequential(conv, nn.Tanh())`. The forward then applies a source
term to the field `u` in place with `u.add_(...)`, but the conv saved `u` for its
weight gradient, so backward raises; the assert catches the in-place error.
"""
import torch
import torch.nn as nn

torch.manual_seed(2)


class HeatSurrogate(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.lift = nn.Linear(1, ch)
        conv = nn.Conv1d(ch, ch, kernel_size=5, padding=2)
        self.stencil = nn.Sequential(conv, nn.Tanh())
        self.dt = 0.05

    def forward(self, field, source):
        u = self.lift(field.unsqueeze(-1)).transpose(1, 2).contiguous()
        flux = self.stencil(u)
        u.add_(self.dt * source)            # conv saved u
        return u + self.dt * flux


model = HeatSurrogate()
field = torch.randn(2, 32)
source = torch.randn(2, 4, 32)
out = model(field, source)
try:
    out.pow(2).mean().backward()
    failed = False
except RuntimeError as err:
    failed = "modified by an inplace operation" in str(err)
assert failed, "the Sequential's conv saved u, so backward must raise"
print("ok: editing the Sequential's input in place breaks backward")
