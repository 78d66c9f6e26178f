"""
expect: none
dynamic: dismiss
source: kinds check 40, kind 2

Same list-built block and the same in-place shortcut add in the parent, but
the list ends with a BatchNorm1d (the activation comes earlier). BatchNorm's
backward reads its input and saved statistics, not its output, so adding
into its output in place is safe and backward runs.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class GateBlock(nn.Module):
    def __init__(self, dim, gated=True):
        super().__init__()
        layers = [nn.Linear(dim, dim)]
        if gated:
            layers.append(nn.Sigmoid())
        layers.append(nn.Linear(dim, dim))
        layers.append(nn.BatchNorm1d(dim))
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
loss.backward()
opt.step()
assert all(p.grad is not None and torch.isfinite(p.grad).all() for p in model.parameters())
print("in-place shortcut after BatchNorm tail: backward fine")
