"""
expect: GL002 27
dynamic: confirm
source: kinds check 47, kind 4

A face-embedding trainer sums triplet margins over anchor/positive/negative
pairs in a Python accumulator started at 0, then rebuilds the mean as a new
leaf with torch.tensor(total / n, requires_grad=True). The copy has no history,
so backward() never reaches the embedding network.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.simplefilter("ignore", UserWarning)
torch.manual_seed(6)
embed = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 8))
faces = torch.randn(30, 20)
triplets = [(i, (i + 1) % 30, (i + 15) % 30) for i in range(0, 30, 3)]

total = 0
for a, p, n in triplets:
    ea, ep, en = embed(faces[[a, p, n]])
    total += F.relu((ea - ep).norm() - (ea - en).norm() + 1.0)
loss = torch.tensor(total / len(triplets), requires_grad=True)
loss.backward()
assert all(p.grad is None for p in embed.parameters())

# intended: keep the accumulated tensor and backpropagate it
(total / len(triplets)).backward()
assert all(p.grad is not None for p in embed.parameters())
print("k07 ok: torch.tensor rebuild cuts the graph")
