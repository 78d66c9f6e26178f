"""
expect: none
dynamic: dismiss
source: kinds check 29, kind 2

A detection box-regression head receives per-class target statistics
(plain tensors in namedtuples) through set_stats() after construction
and denormalises its deltas row by row in place. The statistics carry no
gradient, so the multiply saves only the std, never the edited row.
"""
from collections import namedtuple

import torch
import torch.nn as nn

BoxStats = namedtuple("BoxStats", ["mean", "std"])


class BoxHead(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.reg = nn.Linear(d, 4)
        self.stats = None

    def set_stats(self, stats):
        self.stats = stats

    def forward(self, feats, labels):
        out = self.reg(feats)
        for i in range(out.shape[0]):
            k = int(labels[i])
            out[i] = out[i] * self.stats[k].std + self.stats[k].mean
        return out


torch.manual_seed(0)
head = BoxHead(12)
stats = {c: BoxStats(mean=torch.randn(4) * 0.1, std=torch.rand(4) + 0.5) for c in range(3)}
head.set_stats(stats)
feats = torch.randn(6, 12)
labels = torch.tensor([0, 1, 2, 1, 0, 2])
gt = torch.randn(6, 4)
opt = torch.optim.SGD(head.parameters(), lr=0.1)

losses = []
for step in range(20):
    opt.zero_grad()
    loss = nn.functional.smooth_l1_loss(head(feats, labels), gt)
    loss.backward()
    assert head.reg.weight.grad is not None
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0], losses
print("ok", losses[0], losses[-1])
