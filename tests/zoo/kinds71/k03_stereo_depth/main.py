"""
expect: GL002 plane_fit.py:18, GL002 plane_fit.py:20
dynamic: confirm
source: none, invented

A tiny stereo-depth network maps a patch descriptor to five scalars (of six outputs), plane_fit.solve_plane_slopes turns them into
a linear system and solves it, and the loss compares the solved slopes to ground truth. Because the helper
rebuilds its matrix and vector with torch.tensor(...) + requires_grad = True, the loss has no path back to the
network: its weights stay exactly the same after training. This is a bug.
"""
import torch
import torch.nn as nn

from plane_fit import solve_plane_slopes

torch.manual_seed(0)

net = nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Linear(32, 6))
opt = torch.optim.SGD(net.parameters(), lr=0.05)
patch = torch.randn(9)
true_slopes = torch.tensor([0.3, -0.2])
before = [p.detach().clone() for p in net.parameters()]

for step in range(5):
    opt.zero_grad()
    preds = net(patch)
    slopes = solve_plane_slopes(preds)
    loss = ((slopes - true_slopes) ** 2).sum()
    loss.backward()
    opt.step()

assert loss.requires_grad  # looks trainable...
for p in net.parameters():
    assert p.grad is None, "network never receives a gradient"
for p0, p in zip(before, net.parameters()):
    assert torch.equal(p0, p), "weights unchanged"
print("k03 ok: solved system is disconnected from the network")
