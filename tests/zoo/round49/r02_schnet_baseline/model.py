"""Baseline energy models for a QM9-style energy task and an MD17-style energy/force task."""
import torch
import torch.nn as nn


class AtomwiseBaseline(nn.Module):
    """Per-atom energies from an element embedding and the raw coordinates, summed per molecule."""

    def __init__(self, max_z=10, emb_dim=8, spatial_dim=16, differentiable_sum=False):
        super().__init__()
        self.differentiable_sum = differentiable_sum
        self.embedding = nn.Embedding(max_z, emb_dim)
        self.spatial = nn.Sequential(nn.Linear(3, spatial_dim), nn.ReLU(), nn.Linear(spatial_dim, spatial_dim))
        self.combiner = nn.Linear(emb_dim + spatial_dim, 1, bias=False)

    def forward(self, batch):
        feats = torch.cat([self.embedding(batch["Z"]), self.spatial(batch["R"])], dim=1)
        per_atom = self.combiner(feats)
        per_molecule = torch.split(per_atom, batch["N"].tolist())
        if self.differentiable_sum:
            return torch.stack([chunk.sum() for chunk in per_molecule])
        return torch.tensor([chunk.sum() for chunk in per_molecule], requires_grad=True)


class FlatCoordinateEnergy(nn.Module):
    """MD17-style baseline: one molecule type, energy regressed from the flattened coordinates."""

    def __init__(self, n_atoms, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(3 * n_atoms, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, R_flat):
        return self.net(R_flat)
