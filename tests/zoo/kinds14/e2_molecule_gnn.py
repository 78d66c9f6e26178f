"""
expect: GL001 24
dynamic: confirm
source: kind E

A molecular property predictor sums an atom-feature branch and a bond-neighbourhood branch
into one node representation, with the atom branch's output detached in the sum. The asserts
show the atom branch's weights get no gradient and do not change while the neighbourhood
branch trains, and a variant summing without the detach trains both.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoleculeNet(nn.Module):
    def __init__(self, atom_dim=9, hid=16):
        super().__init__()
        self.atom_branch = nn.Sequential(nn.Linear(atom_dim, hid), nn.ReLU())
        self.bond_branch = nn.Sequential(nn.Linear(atom_dim, hid), nn.ReLU())
        self.predict = nn.Linear(hid, 1)

    def node_states(self, atoms, bonds):
        return self.atom_branch(atoms).detach() + self.bond_branch(bonds @ atoms)

    def forward(self, atoms, bonds):
        return self.predict(self.node_states(atoms, bonds).mean(0))


class MoleculeNetFixed(MoleculeNet):
    def node_states(self, atoms, bonds):
        return self.atom_branch(atoms) + self.bond_branch(bonds @ atoms)


def train(cls):
    torch.manual_seed(0)
    model = cls()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    molecules = []
    for n in (5, 7, 6):
        bonds = (torch.rand(n, n) > 0.6).float()
        molecules.append((torch.randn(n, 9), (bonds + bonds.t()).clamp(max=1), torch.randn(1)))
    atom_before = model.atom_branch[0].weight.detach().clone()
    bond_before = model.bond_branch[0].weight.detach().clone()
    for atoms, bonds, target in molecules:
        opt.zero_grad()
        F.mse_loss(model(atoms, bonds), target).backward()
        opt.step()
    return model, atom_before, bond_before


model, atom_before, bond_before = train(MoleculeNet)
assert model.atom_branch[0].weight.grad is None
assert torch.equal(model.atom_branch[0].weight, atom_before)
assert not torch.equal(model.bond_branch[0].weight, bond_before)

model, atom_before, _ = train(MoleculeNetFixed)
assert model.atom_branch[0].weight.grad is not None
assert not torch.equal(model.atom_branch[0].weight, atom_before)
print("e2 ok")
