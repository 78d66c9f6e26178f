"""
expect: none
dynamic: dismiss
source: kinds check 54, kind 3

Monocular depth: DepthCriterion picks scale_invariant by default; both candidate
functions keep the autograd history, so the depth head trains.
"""
import torch
import torch.nn as nn
from depth_losses import DepthCriterion

torch.manual_seed(3)
net = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(20, 1), nn.Softplus())
criterion = DepthCriterion()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
before = [p.detach().clone() for p in net.parameters()]
for _ in range(5):
    x, depth = torch.randn(32, 10), torch.rand(32, 1) + 0.5
    loss = criterion(net(x) + 1e-3, depth)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert all(p.grad is not None for p in net.parameters())
assert any(not torch.equal(a, b) for a, b in zip(before, net.parameters()))
print("ok: depth head trains")
