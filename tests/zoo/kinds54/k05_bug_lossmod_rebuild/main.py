"""
expect: GL002 box_losses.py:8
dynamic: confirm
source: kinds check 54, kind 3

Bounding-box offset regression: OffsetLoss stores robust_offset_loss on self.fn by
default, and that function rebuilds its loss with torch.tensor(loss.item(),
requires_grad=True), cutting the graph: the head never trains.
"""
import torch
import torch.nn as nn
from box_losses import OffsetLoss

torch.manual_seed(0)
head = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
crit = OffsetLoss()
opt = torch.optim.SGD(head.parameters(), lr=0.1)
before = [p.detach().clone() for p in head.parameters()]
for _ in range(5):
    feats, offsets = torch.randn(16, 32), torch.randn(16, 4)
    loss = crit(head(feats), offsets)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert all(p.grad is None for p in head.parameters()), "no gradient should reach the head"
assert all(torch.equal(a, b) for a, b in zip(before, head.parameters()))
print("ok: head never trained")
