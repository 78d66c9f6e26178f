"""expect: GL005 29
dynamic: error
source: https://github.com/wutong16/DistributionBalancedLoss/issues/20

A gating block adds its residual branch into the gate's output in place (`out += residual`). The gate is a separate user module whose forward ends in `torch.sigmoid`, and sigmoid saves its output for backward, so the in-place add bumps the version of a saved tensor and backward fails with "output 0 of SigmoidBackward0 ... modified by an inplace operation" (the error in the linked report). Seeing it needs the fact that `Gate.forward` returns a sigmoid result.
"""
import torch
import torch.nn as nn


class Gate(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x):
        return torch.sigmoid(self.fc(x))


class GatedBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.gate = Gate(dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        out = self.gate(x)
        residual = self.proj(x)
        out += residual
        return out


torch.manual_seed(0)
block = GatedBlock(8)
opt = torch.optim.SGD(block.parameters(), lr=0.1)
loss = block(torch.randn(4, 8)).pow(2).mean()
opt.zero_grad()
loss.backward()
opt.step()
print("gate grad", block.gate.fc.weight.grad.norm().item())
