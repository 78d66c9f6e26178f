"""
expect: GL001 38
dynamic: confirm
source: https://github.com/NVlabs/tiny-cuda-nn/issues/77

The reporter found the output of their hash-grid encoding had requires_grad
False, so nothing behind it could be differentiated; it turned out a
`with torch.no_grad():` in their own code wrapped the encoding call. This program
rebuilds a small NeRF-style field whose point-encoding helper runs the learnable
hash-grid table under no_grad. Training still runs because the density MLP after
it has parameters, but the asserts show the grid table's .grad stays None and the
table never changes, while the MLP does learn.
"""
import torch
import torch.nn as nn


class HashGrid(nn.Module):
    def __init__(self, table_size=64, feat=4, res=8):
        super().__init__()
        self.table = nn.Parameter(torch.randn(table_size, feat) * 0.1)
        self.res, self.size = res, table_size

    def forward(self, pts):
        idx = (pts.clamp(0, 1) * (self.res - 1)).long()
        h = (idx[:, 0] * 73856093) ^ (idx[:, 1] * 19349663) ^ (idx[:, 2] * 83492791)
        return self.table[h % self.size]


class RadianceField(nn.Module):
    def __init__(self):
        super().__init__()
        self.grid = HashGrid()
        self.mlp = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))

    def encode(self, pts):
        with torch.no_grad():
            feats = self.grid(pts)
        return feats

    def forward(self, pts):
        return self.mlp(self.encode(pts))


torch.manual_seed(0)
field = RadianceField()
opt = torch.optim.Adam(field.parameters(), lr=1e-2)
pts = torch.rand(256, 3)
target = torch.sin(pts.sum(-1, keepdim=True) * 3)
table0 = field.grid.table.detach().clone()
mlp0 = field.mlp[0].weight.detach().clone()
for _ in range(20):
    opt.zero_grad()
    loss = ((field(pts) - target) ** 2).mean()
    loss.backward()
    opt.step()
assert field.grid.table.grad is None
assert torch.equal(table0, field.grid.table)
assert not torch.equal(mlp0, field.mlp[0].weight)
print("grid table grad:", field.grid.table.grad, "final loss:", loss.item())
