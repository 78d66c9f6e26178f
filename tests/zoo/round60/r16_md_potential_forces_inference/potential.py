"""Neural pair potential: energy from pair distances, forces as -dE/dpos."""
import torch
import torch.nn as nn


class PairPotential(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.pair_energy = nn.Sequential(nn.Linear(1, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, pos):
        # pos: (n_atoms, 3); forces come from autograd of the energy w.r.t. positions
        pos.requires_grad_(True)
        i, j = torch.triu_indices(pos.shape[0], pos.shape[0], offset=1)
        dist = (pos[i] - pos[j]).norm(dim=-1, keepdim=True)
        energy = self.pair_energy(dist).sum()
        grad_pos, = torch.autograd.grad(energy, pos, create_graph=True)
        return energy, -grad_pos


def reference_energy_forces(pos):
    """Soft Lennard-Jones-like reference used to label the toy data set."""
    pos = pos.detach().clone().requires_grad_(True)
    i, j = torch.triu_indices(pos.shape[0], pos.shape[0], offset=1)
    r = (pos[i] - pos[j]).norm(dim=-1)
    energy = (1.0 / r ** 6 - 1.0 / r ** 3).sum()
    forces = -torch.autograd.grad(energy, pos)[0]
    return energy.detach(), forces.detach()
