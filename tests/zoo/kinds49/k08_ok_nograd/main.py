"""
expect: none
dynamic: dismiss
source: kinds check 49, kind 4

A segmentation trainer computes its dice+BCE loss through a handed criterion
with grad enabled and steps on it; a separate `torch.no_grad()` block scores
a held-out batch with the same criterion and only reads `.item()`. The
parameters receive gradients and change.
"""
import torch
import torch.nn as nn

from losses import SegmentationCriterion


class SegTrainer:
    def __init__(self, net, criterion):
        self.net = net
        self.criterion = criterion
        self.opt = torch.optim.Adam(net.parameters(), lr=1e-2)

    def step(self, batch, held_out):
        self.opt.zero_grad()
        loss = self.criterion.compute(self.net, batch)
        loss.backward()
        self.opt.step()
        with torch.no_grad():
            val = self.criterion.compute(self.net, held_out).item()
        return loss.item(), val


torch.manual_seed(7)
net = nn.Conv2d(3, 1, 3, padding=1)
mk = lambda: (torch.randn(4, 3, 16, 16), (torch.rand(4, 1, 16, 16) > 0.5).float())
train_b, val_b = mk(), mk()
before = [p.detach().clone() for p in net.parameters()]
tr = SegTrainer(net, SegmentationCriterion())
tr_loss, val_loss = tr.step(train_b, val_b)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
assert any(not torch.equal(b, p) for b, p in zip(before, net.parameters()))
assert isinstance(val_loss, float)
print("ok: trains; eval only reads .item()")
