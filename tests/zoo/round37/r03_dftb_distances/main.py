"""
expect: GL005 geometry.py:15
dynamic: confirm
source: https://github.com/tbmalt/tbmalt/pull/76

A tbmalt PR makes the energy differentiable with respect to positions "by cloning
the distance matrix before masking". The Geometry helper computes distances with a
sqrt (whose backward reuses its output) and then zeroes padded-atom entries in place,
so differentiating a learnable repulsive energy for forces hits a tensor that was
modified after it was saved. The asserts show the force/loss backward fails with the
version-counter error, while the out-of-place masked variant trains the parameters.
"""
import torch
import torch.nn as nn

from geometry import Geometry

torch.manual_seed(0)
torch.set_num_threads(1)


class Repulsive(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Parameter(torch.tensor(1.5))
        self.b = nn.Parameter(torch.tensor(2.0))

    def forward(self, dist, real_pair):
        e = self.a * torch.exp(-self.b * dist)
        return (e * real_pair).sum() * 0.5


def force_loss(model, geom, use_clone, f_ref):
    geom.positions = geom.positions.detach().requires_grad_(True)
    dist = geom.distances_cloned if use_clone else geom.distances
    real = (dist > 0).float()
    energy = model(dist, real)
    forces = -torch.autograd.grad(energy, geom.positions, create_graph=True)[0]
    return ((forces - f_ref) ** 2).mean()


numbers = torch.tensor([[8, 1, 1, 0], [6, 1, 0, 0]])
positions = torch.rand(2, 4, 3) * 2.0
f_ref = torch.randn(2, 4, 3) * 0.1

model = Repulsive()
geom = Geometry(numbers, positions)
raised = False
try:
    force_loss(model, geom, use_clone=False, f_ref=f_ref).backward()
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "in-place masking of the saved sqrt output should break backward"

model.zero_grad()
opt = torch.optim.SGD(model.parameters(), lr=0.05)
losses = []
for _ in range(5):
    opt.zero_grad()
    loss = force_loss(model, geom, use_clone=True, f_ref=f_ref)
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert model.a.grad is not None and model.a.grad.abs() > 0
assert losses[-1] < losses[0]
print("ok: in-place mask breaks force training; cloned/out-of-place mask trains")
