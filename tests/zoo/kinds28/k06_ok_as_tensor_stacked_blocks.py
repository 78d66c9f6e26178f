"""
expect: none
dynamic: dismiss
source: kinds check 28, kind 3

A tabular residual MLP whose blocks "accept NumPy rows" by converting their input
with torch.as_tensor(..., dtype=float32). A float32 tensor passes through unchanged
with its graph, so every block in the ModuleList chain is trained.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


class TabBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        x = torch.as_tensor(x, dtype=torch.float32)  # accept NumPy rows too
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
rows = np.random.RandomState(0).randn(48, 10).astype(np.float32)
y = torch.randn(48, 1)
loss = ((model(rows) - y) ** 2).mean()
loss.backward()

for i, blk in enumerate(model.blocks):
    assert blk.fc.weight.grad is not None and blk.fc.weight.grad.abs().sum() > 0, f"block {i}"

assert model.out.weight.grad.abs().sum() > 0
print("ok: every block is trained")
