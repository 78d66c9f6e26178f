"""
expect: GL002 model.py:20
dynamic: confirm
source: https://github.com/atomistic-machine-learning/schnetpack/issues/215

Molecular property GNNs (SchNetPack-style energy and force training). A user fed
the network with descriptors produced by an external package that works on
plain arrays: the atom positions are sent out as NumPy, the descriptor comes back
as an array and is turned into a tensor again. Energy training works, but as soon
as forces (F = -dE/dR) enter the loss, `torch.autograd.grad(E, positions)` fails
with "One of the differentiated Tensors appears to not have been used in the
graph": the rebuilt descriptor has no history back to the positions. This
reproduction has a continuous-filter message-passing model whose edge features
come from a NumPy radial basis through `torch.from_numpy(...)`; the program
catches the error on that default path, then computes the same radial basis in
torch and checks that energy+force training brings the force error down.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch

from model import FilterMPNN, energy_and_forces

torch.manual_seed(0)
torch.set_num_threads(1)


def morse_energy(pos):
    diff = pos[:, None, :] - pos[None, :, :]
    dist = torch.sqrt((diff ** 2).sum(-1) + torch.eye(len(pos)))
    pair = (1 - torch.exp(-1.5 * (dist - 1.2))) ** 2 - 1
    mask = 1.0 - torch.eye(len(pos))
    return 0.5 * (pair * mask).sum()


def make_structures(n=16, atoms=5):
    data = []
    for _ in range(n):
        pos = (torch.randn(atoms, 3) * 0.7).requires_grad_(True)
        e = morse_energy(pos)
        f = -torch.autograd.grad(e, pos)[0]
        data.append((pos.detach(), e.detach(), f.detach()))
    return data


data = make_structures()

# --- default path: external (NumPy) descriptor, forces in the loss
model = FilterMPNN(use_external_descriptor=True)
pos, e_ref, f_ref = data[0]
try:
    energy_and_forces(model, pos)
    raise AssertionError("expected force computation to fail")
except RuntimeError as err:
    assert "not have been used in the graph" in str(err), err

# --- fixed: descriptor computed in torch, energy + force matching
model = FilterMPNN(use_external_descriptor=False)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)


def force_error():
    errs = []
    for pos, e_ref, f_ref in data:
        _, f = energy_and_forces(model, pos, create_graph=False)
        errs.append((f - f_ref).abs().mean().item())
    return sum(errs) / len(errs)


err_before = force_error()
for epoch in range(25):
    for pos, e_ref, f_ref in data:
        e, f = energy_and_forces(model, pos)
        loss = (e - e_ref) ** 2 / 25 + ((f - f_ref) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
err_after = force_error()
assert err_after < 0.6 * err_before, (err_before, err_after)
print(f"force MAE {err_before:.3f} -> {err_after:.3f}")
