"""
expect: GL002 27
dynamic: confirm
source: kinds check 28, kind 3

A tabular residual MLP whose blocks "accept NumPy rows" by re-wrapping their input
with torch.tensor(..., dtype=float32). For a tensor input that is a fresh leaf copy,
so when the blocks are chained in a ModuleList only the last block is trained.
"""
import warnings

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
warnings.filterwarnings("ignore", category=UserWarning)


class TabBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        x = torch.tensor(x, dtype=torch.float32)  # accept NumPy rows too
        return x + torch.relu(self.norm(self.fc(x)))


class TabNet(nn.Module):
    def __init__(self, d=10, depth=4):
        super().__init__()
        self.blocks = nn.ModuleList([TabBlock(d) for _ in range(depth)])
        self.out = nn.Linear(d, 1)

    def forward(self, x):
        for block in self.blocks:
            x = block(x)
        return self.out(x)


model = TabNet()
rows = np.random.RandomState(0).randn(48, 10)
y = torch.randn(48, 1)
loss = ((model(rows) - y) ** 2).mean()
loss.backward()

for i, blk in enumerate(model.blocks[:-1]):
    assert blk.fc.weight.grad is None, f"block {i} should get no gradient"
assert model.blocks[-1].fc.weight.grad.abs().sum() > 0
assert model.out.weight.grad.abs().sum() > 0
print("ok: only the last block is trained")
