"""
expect: GL003 main.py:33
dynamic: confirm
source: kinds check 51, kind 2

A neural interatomic potential is fitted to reference forces. The force-matching
loss takes dE/dx without create_graph=True and then switches requires_grad on the
forces, so backward runs fine but never reaches the potential's parameters.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from objectives import force_matching_loss

torch.manual_seed(2)

potential = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(potential.parameters(), lr=1e-3)
before = [p.detach().clone() for p in potential.parameters()]


def intended(coords, ref_forces):
    energy = potential(coords).sum()
    forces = -torch.autograd.grad(energy, coords, create_graph=True)[0]
    return F.mse_loss(forces, ref_forces)


for epoch in range(3):
    coords = torch.randn(20, 3, requires_grad=True)
    ref_forces = torch.randn(20, 3)
    opt.zero_grad()
    loss = force_matching_loss(potential, coords, ref_forces)
    loss.backward()
    assert all(p.grad is None for p in potential.parameters())
    opt.step()

assert all(torch.equal(a, b) for a, b in zip(before, potential.parameters()))
coords = torch.randn(20, 3, requires_grad=True)
intended(coords, torch.randn(20, 3)).backward()
assert potential[0].weight.grad is not None and potential[0].weight.grad.abs().sum() > 0
print("ok: force loss never trained the potential; create_graph version does")
