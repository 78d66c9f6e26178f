"""
expect: none
dynamic: dismiss
source: kinds check 54, kind 5

House-price regression: the driver calls net.eval() inside the no_grad block before the
shared epoch, so the epoch skips backward during validation.
"""
import torch
import torch.nn as nn
from shared import epoch

torch.manual_seed(5)
net = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 1))
optim = torch.optim.SGD(net.parameters(), lr=0.01)
crit = nn.MSELoss()
fit = [(torch.randn(16, 6), torch.randn(16, 1)) for _ in range(4)]
hold = [(torch.randn(16, 6), torch.randn(16, 1)) for _ in range(2)]

for ep in range(2):
    net.train()
    epoch(net, fit, crit, optim)
    snap = [p.detach().clone() for p in net.parameters()]
    with torch.no_grad():
        net.eval()
        v = epoch(net, hold, crit, optim)
    assert all(torch.equal(a, b) for a, b in zip(snap, net.parameters()))
print("ok: validation ran, val loss", round(v, 3))
