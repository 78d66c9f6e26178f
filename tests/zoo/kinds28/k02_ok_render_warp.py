"""
expect: none
dynamic: dismiss
source: kinds check 28, kind 1

A toy neural-field renderer: a helper render(field, warp, x) feeds the field's
output into a warp network. The warp concatenates its input with a normalised
copy and keeps the graph, so the caller's loss trains both networks.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Field(nn.Module):
    def __init__(self, d_in=3, d_out=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, 16), nn.Tanh(), nn.Linear(16, d_out))

    def forward(self, pts):
        return self.net(pts)


class Warp(nn.Module):
    def __init__(self, d=4):
        super().__init__()
        self.mix = nn.Linear(2 * d, 3)

    def forward(self, feat):
        scaled = feat / (feat.norm(dim=-1, keepdim=True) + 1e-6)
        enc = torch.cat([feat, scaled], dim=-1)
        return self.mix(enc)


def render(field, warp, x):
    feat = field(x)
    rgb = warp(feat)
    return torch.sigmoid(rgb)


field, warp = Field(), Warp()
pts = torch.randn(64, 3)
target = torch.rand(64, 3)
pred = render(field, warp, pts)
loss = ((pred - target) ** 2).mean()
loss.backward()

assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in field.parameters())
assert warp.mix.weight.grad is not None and warp.mix.weight.grad.abs().sum() > 0
print("ok: both networks receive gradient through render()")
