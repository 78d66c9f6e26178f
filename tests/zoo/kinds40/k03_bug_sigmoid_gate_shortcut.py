"""
expect: GL005 42
dynamic: confirm
source: kinds check 40, kind 2

A tabular-embedding gating block builds its layers in a local list and ends
it with a Sigmoid when gating is on. The parent adds the shortcut into that
Sigmoid output in place; Sigmoid saved its output for backward, so the
backward pass fails with a version-counter error.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class GateBlock(nn.Module):
    def __init__(self, dim, gated=True):
        super().__init__()
        layers = [nn.Linear(dim, dim), nn.LayerNorm(dim)]
        if gated:
            layers.append(nn.Sigmoid())
        else:
            layers.append(nn.Identity())
        self.body = nn.Sequential(*layers)

    def forward(self, x):
        return self.body(x)


class FeatureTower(nn.Module):
    def __init__(self, dim=12, depth=2):
        super().__init__()
        self.stem = nn.Linear(5, dim)
        self.blocks = nn.ModuleList([GateBlock(dim) for _ in range(depth)])
        self.head = nn.Linear(dim, 1)

    def forward(self, x):
        h = self.stem(x)
        for blk in self.blocks:
            out = blk(h)
            out += h
            h = out
        return self.head(h)


model = FeatureTower()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(16, 5)
y = torch.randn(16, 1)

loss = ((model(x) - y) ** 2).mean()
try:
    loss.backward()
except RuntimeError as err:
    msg = str(err)
else:
    msg = ""
assert "modified by an inplace operation" in msg, msg
print("in-place shortcut on Sigmoid output breaks backward: confirmed")
