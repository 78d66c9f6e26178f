import torch
import torch.nn as nn


class BondedChainEnergy(nn.Module):
    """Harmonic bonds between neighbours plus a soft repulsion between all pairs."""

    def __init__(self, rest_length=1.0, k_bond=10.0, k_rep=0.5):
        super().__init__()
        self.rest_length = rest_length
        self.k_bond = nn.Parameter(torch.tensor(k_bond))
        self.k_rep = nn.Parameter(torch.tensor(k_rep))

    def forward(self, pos):
        # pos: (batch, n_atoms, 2)
        bonds = (pos[:, 1:] - pos[:, :-1]).norm(dim=-1)
        e_bond = self.k_bond * (bonds - self.rest_length).pow(2).sum(-1)
        d = torch.cdist(pos, pos) + torch.eye(pos.shape[1])
        e_rep = self.k_rep * torch.exp(-d).triu(diagonal=2).sum((-1, -2))
        return e_bond + e_rep


def relax_positions(energy_fn, initial, steps=100, step_size=0.01):
    """Gradient-descent relaxation of predicted coordinates (test-time refinement)."""
    coords = initial.detach().requires_grad_(True)
    history = []
    for _ in range(steps):
        energy = energy_fn(coords)
        forces, = torch.autograd.grad(energy.sum(), coords)
        with torch.no_grad():
            coords -= step_size * forces.clamp(-10, 10)
        history.append(energy.mean().item())
    return coords.detach(), history
