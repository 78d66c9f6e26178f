"""
expect: GL003 17
dynamic: confirm
source: kinds check 47, kind 1

A rainfall regressor passes its loss through a "keep it connected" guard. The
forward pass was placed inside torch.no_grad() with the metric code, so the loss
has no history; the guard turns it into a fresh leaf and backward() reaches no
parameter: the network never trains.
"""
import torch
import torch.nn as nn


def connected(term):
    if not term.requires_grad:
        term = term.detach().requires_grad_(True)
    return term


torch.manual_seed(0)
station_net = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1))
opt = torch.optim.SGD(station_net.parameters(), lr=0.05)
readings = torch.randn(128, 6)
rain_mm = readings[:, :2].sum(1, keepdim=True)

before = [p.detach().clone() for p in station_net.parameters()]
for _ in range(20):
    opt.zero_grad()
    with torch.no_grad():
        pred = station_net(readings)
        mae = (pred - rain_mm).abs().mean()
    loss = connected(((pred - rain_mm) ** 2).mean())
    loss.backward()
    opt.step()

assert all(p.grad is None for p in station_net.parameters())
assert all(torch.equal(a, b) for a, b in zip(before, station_net.parameters()))

# intended: forward with history, the guard is a no-op and the weights move
pred = station_net(readings)
loss = connected(((pred - rain_mm) ** 2).mean())
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in station_net.parameters())
print("k01 ok: guarded no_grad loss trains nothing")
