"""
expect: none
dynamic: dismiss
source: none, invented

A coordinate predictor maps a sequence descriptor to 2-D positions of a bead chain; it is first fitted
with a plain supervised loss. At test time the predicted coordinates are relaxed under a physical energy
(`relax.py`): `relax_positions` makes the prediction a fresh leaf with `.detach().requires_grad_(True)`,
takes `torch.autograd.grad` of the energy with respect to it and moves the coordinates by hand. That is
the intended use of the switch: only the coordinates are optimised, no model is stepped and nothing is
backpropagated into the predictor or the energy's parameters. The asserts show the energy falling during
relaxation, the bond lengths approaching the rest length, and the predictor and energy parameters being
untouched by the refinement.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from relax import BondedChainEnergy, relax_positions

torch.manual_seed(0)
torch.set_num_threads(1)

N_BEADS, DESC = 8, 12


class CoordinatePredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(DESC, 64), nn.Tanh(), nn.Linear(64, N_BEADS * 2))

    def forward(self, desc):
        return self.mlp(desc).view(-1, N_BEADS, 2)


def reference_chains(n):
    angles = torch.cumsum(0.4 * torch.randn(n, N_BEADS), dim=1)
    steps = torch.stack([angles.cos(), angles.sin()], -1)
    return torch.cumsum(steps, dim=1)


if __name__ == "__main__":
    predictor = CoordinatePredictor()
    energy = BondedChainEnergy()
    desc = torch.randn(128, DESC)
    coords_true = reference_chains(128)
    opt = torch.optim.Adam(predictor.parameters(), lr=3e-3)
    for _ in range(60):
        loss = F.mse_loss(predictor(desc), coords_true)
        opt.zero_grad()
        loss.backward()
        opt.step()

    snapshot = {k: v.clone() for k, v in predictor.state_dict().items()}
    predictor.zero_grad(set_to_none=True)
    with torch.no_grad():
        raw = predictor(desc[:16])
    relaxed, history = relax_positions(energy, predictor(desc[:16]))

    assert history[-1] < 0.5 * history[0], (history[0], history[-1])
    bond_err_raw = ((raw[:, 1:] - raw[:, :-1]).norm(dim=-1) - 1).abs().mean()
    bond_err_rel = ((relaxed[:, 1:] - relaxed[:, :-1]).norm(dim=-1) - 1).abs().mean()
    assert bond_err_rel < bond_err_raw
    assert all(p.grad is None for p in predictor.parameters())
    assert energy.k_bond.grad is None
    assert all(torch.equal(v, predictor.state_dict()[k]) for k, v in snapshot.items())
    print(f"energy {history[0]:.2f} -> {history[-1]:.2f}; bond error {bond_err_raw:.3f} -> {bond_err_rel:.3f}")
