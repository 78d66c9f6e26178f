"""
expect: GL002 neighbors.py:19
dynamic: confirm
source: https://github.com/e3nn/e3nn/pull/164

A PR in e3nn notes that an earlier change broke autograd from the atomic forces
back to the positions: the neighbour helper built edge displacements in numpy and
wrapped them with torch.as_tensor. Here a pair potential is trained on energies and
forces F = -dE/dpos; the helper file does the numpy round trip, so autograd.grad
finds no path to pos, the forces fall back to zeros and the force term trains
nothing. The asserts show the force loss gives every parameter a zero gradient,
while the torch-displacement variant gives a real one.
"""
import torch
import torch.nn as nn

from neighbors import neighbor_list_and_relative_vec, neighbor_list_torch

torch.manual_seed(0)
torch.set_num_threads(1)


class PairPotential(nn.Module):
    def __init__(self, r_max=2.5, neighbor_fn=neighbor_list_and_relative_vec):
        super().__init__()
        self.r_max = r_max
        self.neighbor_fn = neighbor_fn
        self.radial = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, pos):
        _, edge_vec = self.neighbor_fn(pos, self.r_max)
        r = edge_vec.norm(dim=-1, keepdim=True)
        return 0.5 * self.radial(r).sum()


def energy_and_forces(model, pos):
    pos = pos.clone().requires_grad_(True)
    energy = model(pos)
    grad = torch.autograd.grad(energy, pos, create_graph=True, allow_unused=True)[0]
    if grad is None:  # "no neighbours touched pos" -> treat as zero force
        grad = torch.zeros_like(pos)
    return energy, -grad


def force_term_grads(model, pos, f_ref):
    model.zero_grad()
    _, forces = energy_and_forces(model, pos)
    f_loss = ((forces - f_ref) ** 2).mean()
    if f_loss.requires_grad:
        f_loss.backward()
    return [p.grad for p in model.parameters()]


pos = torch.rand(6, 3) * 3.0
e_ref = torch.tensor(-1.3)
f_ref = torch.randn(6, 3)

model = PairPotential()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for step in range(5):
    opt.zero_grad()
    e, f = energy_and_forces(model, pos)
    loss = (e - e_ref) ** 2 + ((f - f_ref) ** 2).mean()
    loss.backward()
    opt.step()

buggy = force_term_grads(model, pos, f_ref)
assert all(g is None or g.abs().sum() == 0 for g in buggy), "force term should train nothing"
_, f_pred = energy_and_forces(model, pos)
assert f_pred.abs().sum() == 0

fixed_model = PairPotential(neighbor_fn=neighbor_list_torch)
fixed_model.load_state_dict(model.state_dict())
fixed = force_term_grads(fixed_model, pos, f_ref)
assert any(g is not None and g.abs().sum() > 0 for g in fixed)
print("ok: numpy displacements cut the force term; torch displacements train it")
