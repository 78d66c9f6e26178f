"""
expect: GL005 23
dynamic: confirm
source: kinds check 22, kind 5 (written for this check)

A graph attention layer floors its sigmoid edge gates with a helper method that writes
into its argument (x[x < lo] = lo); sigmoid saved that output for backward, so backward
raises "modified by an inplace operation". The asserts prove the raise, and that an
out-of-place floor on the same gates trains.
"""
import torch
import torch.nn as nn


class GatedGraphConv(nn.Module):
    def __init__(self, d=8, lo=0.05):
        super().__init__()
        self.gate = nn.Linear(2 * d, 1)
        self.msg = nn.Linear(d, d)
        self.lo = lo

    def floor_gates(self, x):
        x[x < self.lo] = self.lo
        return x

    def forward(self, h, edges):
        src, dst = edges
        g = torch.sigmoid(self.gate(torch.cat([h[src], h[dst]], -1)))
        g = self.floor_gates(g)
        out = torch.zeros_like(h).index_add(0, dst, g * self.msg(h[src]))
        return torch.relu(out) + h


class GatedGraphConvFixed(GatedGraphConv):
    def floor_gates(self, x):
        return x.clamp(min=self.lo)


torch.manual_seed(9)
h = torch.randn(6, 8)
edges = torch.tensor([[0, 1, 2, 3, 4, 5, 0, 2], [1, 2, 3, 4, 5, 0, 3, 5]])
layer = GatedGraphConv()
layer.gate.bias.data.fill_(-3.0)
try:
    layer(h, edges).pow(2).mean().backward()
    raise AssertionError("expected an in-place error")
except RuntimeError as err:
    assert "inplace operation" in str(err), err

fixed = GatedGraphConvFixed()
fixed(h, edges).pow(2).mean().backward()
assert all(p.grad.abs().sum() > 0 for p in fixed.parameters())
print("ok: in-place floor on sigmoid output breaks backward")
