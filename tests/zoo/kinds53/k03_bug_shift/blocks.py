import torch
import torch.nn as nn


class SensorOffset(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.offset = nn.Parameter(torch.full((dim,), 0.1))

    def forward(self, x):
        x += self.offset
        return x


class CalibrationBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.offset = SensorOffset(dim)
        self.readout = nn.Linear(dim, 1)

    def forward(self, x):
        return self.readout(self.offset(x))
