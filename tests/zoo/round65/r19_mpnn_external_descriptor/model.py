"""A small continuous-filter message-passing energy model (SchNet-like)."""
import torch
import torch.nn as nn

from descriptors import radial_basis_numpy, radial_basis_torch


class FilterMPNN(nn.Module):
    def __init__(self, n_rbf=12, hidden=32, n_interactions=2, use_external_descriptor=True):
        super().__init__()
        self.embedding = nn.Parameter(torch.randn(hidden) * 0.1)
        self.filters = nn.ModuleList([nn.Sequential(nn.Linear(n_rbf, hidden), nn.Tanh(), nn.Linear(hidden, hidden))
                                      for _ in range(n_interactions)])
        self.updates = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(n_interactions)])
        self.readout = nn.Sequential(nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))
        self.use_external_descriptor = use_external_descriptor

    def edge_features(self, positions):
        if self.use_external_descriptor:
            return torch.from_numpy(radial_basis_numpy(positions.detach().numpy()))
        return radial_basis_torch(positions)

    def forward(self, positions):
        rbf = self.edge_features(positions)                    # (atoms, atoms, n_rbf)
        h = self.embedding.expand(positions.shape[0], -1)
        for filt, upd in zip(self.filters, self.updates):
            messages = (filt(rbf) * h.unsqueeze(0)).sum(1)    # continuous-filter convolution
            h = h + torch.tanh(upd(messages))
        return self.readout(h).sum()


def energy_and_forces(model, positions, create_graph=True):
    positions = positions.clone().requires_grad_(True)
    energy = model(positions)
    forces = -torch.autograd.grad(energy, positions, create_graph=create_graph)[0]
    return energy, forces
