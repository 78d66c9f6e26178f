"""
expect: GL001 properties.py:30
dynamic: confirm
source: https://github.com/choderalab/modelforge/pull/240

Training a neural interatomic potential on energies and forces. The forces are the
negative gradient of the predicted energy with respect to the atom positions, taken with
torch.autograd.grad inside a properties module (properties.py). The call uses
create_graph=False, so the returned gradient is a plain tensor with no history: the force
term of the loss is computed from a value cut from the graph, and the potential's weights
get nothing from it. Only the energy term trains the model, silently. The asserts show the
predicted forces do not require grad, the force loss contributes zero to every parameter
gradient (the combined loss gives exactly the energy-only gradients), and with
create_graph=True the force term does reach the weights and changes the update.
"""
import torch
import torch.nn.functional as F

from properties import CalculateProperties, PairPotential


class EnergyForceLoss:
    def __init__(self, energy_weight=1.0, force_weight=10.0):
        self.energy_weight = energy_weight
        self.force_weight = force_weight

    def __call__(self, pred, batch):
        e_loss = F.mse_loss(pred["energy"], batch["energy"])
        f_loss = F.mse_loss(pred["forces"], batch["forces"])
        return self.energy_weight * e_loss + self.force_weight * f_loss, e_loss, f_loss


def make_batch(n_mol=6, n_atoms=5):
    teacher = PairPotential(hidden=8)
    positions = torch.randn(n_mol, n_atoms, 3)
    pos = positions.clone().requires_grad_(True)
    energy = teacher(pos)
    forces = -torch.autograd.grad(energy.sum(), pos)[0]
    return {"positions": positions, "energy": energy.detach(), "forces": forces.detach()}


def param_grads(loss, module):
    return torch.autograd.grad(loss, list(module.parameters()), allow_unused=True, retain_graph=True)


torch.manual_seed(0)
torch.set_num_threads(1)
batch = make_batch()
potential = PairPotential()
calc = CalculateProperties(potential)
criterion = EnergyForceLoss()

pred = calc(batch["positions"].clone())
total, e_loss, f_loss = criterion(pred, batch)
assert not pred["forces"].requires_grad
assert not f_loss.requires_grad
assert f_loss.item() > 0

# the combined loss trains exactly like the energy term alone
g_total = param_grads(total, potential)
g_energy = param_grads(criterion.energy_weight * e_loss, potential)
for a, b in zip(g_total, g_energy):
    assert torch.allclose(a, b)

# intended: a force prediction that keeps its history (create_graph=True)
pos = batch["positions"].clone().requires_grad_(True)
energy = potential(pos)
forces = -torch.autograd.grad(energy.sum(), pos, create_graph=True)[0]
f_loss_ok = F.mse_loss(forces, batch["forces"])
g_force = param_grads(f_loss_ok, potential)
reached = [g for g in g_force if g is not None]  # the output bias cannot affect forces
assert len(reached) == 3
assert sum(g.abs().sum().item() for g in reached) > 0

# a few optimizer steps: the force error is left to whatever the energy term does
opt = torch.optim.Adam(potential.parameters(), lr=1e-2)
for _ in range(5):
    pred = calc(batch["positions"].clone())
    total, e_loss, f_loss = criterion(pred, batch)
    opt.zero_grad()
    total.backward()
    opt.step()
print("force loss stays out of the weight update:", round(f_loss.item(), 4))
