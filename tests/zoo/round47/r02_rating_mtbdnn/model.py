"""Multi-task-branch DNN (MTB-DNN) that scores a course/live session from tabular features."""
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MTBDNN(nn.Module):
    def __init__(self, in_features=23, k=2, batch_size=16):
        super().__init__()
        self.k = k
        self.batch_size = batch_size
        self.trunk = nn.Sequential(OrderedDict([
            ("fc1", nn.Linear(in_features, 16)), ("act1", nn.ReLU()),
            ("fc2", nn.Linear(16, 8)), ("act2", nn.ReLU()),
        ]))
        self.branches = nn.ModuleList([
            nn.Sequential(OrderedDict([("br0", nn.Linear(8, 4)), ("out0", nn.Linear(4, 1))])),
            nn.Sequential(OrderedDict([("br1", nn.Linear(8, 3)), ("out1", nn.Linear(3, 1))])),
        ])

    def forward(self, x):
        acc = np.zeros([self.batch_size, 1], dtype=np.float32)
        shared = self.trunk(x)
        for branch in self.branches:
            h = F.relu(branch[0](shared))
            acc += branch[1](h).data.cpu().numpy()
        out = torch.from_numpy(acc)
        return out / self.k
