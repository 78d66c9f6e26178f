"""
expect: GL001 33
dynamic: confirm
source: kinds check 28, kind 1

A toy neural-field renderer: a helper render(field, warp, x) feeds the field's
output into a warp network. The warp builds positional features by concatenating
its input with a rescaled copy and detaches them, so the loss built by the caller
never reaches the field network.
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
        enc = torch.cat([feat, scaled], dim=-1).detach()
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

assert all(p.grad is None for p in field.parameters()), "field should get no gradient"
assert warp.mix.weight.grad is not None and warp.mix.weight.grad.abs().sum() > 0
print("ok: field network receives no gradient through render()")
