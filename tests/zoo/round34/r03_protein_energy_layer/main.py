"""
expect: GL002 energy.py:19, GL003 31
dynamic: confirm
source: https://github.com/jonathanking/sidechainnet/blob/HEAD/sidechainnet/tests/test_openmm.py

Minimising a protein's force-field energy over atom coordinates. The energy layer
hands the coordinates to an external engine (numpy here, OpenMM in the report)
and wraps the returned float in a new tensor; the optimisation loop then silences
"does not require grad" by setting energy.requires_grad = True before backward.
The energy is a fresh leaf, so the coordinates never receive a gradient and the
SGD steps do nothing. The asserts show coords.grad stays None and the structure
is unchanged, while the same energy written in torch lowers it.
"""
import torch
import torch.optim as optim
from energy import ForceFieldEnergy, pair_energy_torch

torch.manual_seed(0)
torch.set_num_threads(1)

start = torch.randn(10, 3) * 0.8


def minimise(coords, steps=10):
    layer = ForceFieldEnergy()
    opt = optim.SGD([coords], lr=1e-3)
    history = []
    for _ in range(steps):
        opt.zero_grad()
        energy = layer(coords)
        energy.requires_grad = True
        energy.backward()
        opt.step()
        history.append(energy.item())
    return history


coords = start.clone().requires_grad_(True)
hist = minimise(coords)
assert coords.grad is None
assert torch.equal(coords.detach(), start), "coordinates moved without a gradient"
assert hist[0] == hist[-1]

# same minimisation with a differentiable energy actually moves atoms
fixed = start.clone().requires_grad_(True)
opt = optim.SGD([fixed], lr=1e-3)
e0 = pair_energy_torch(fixed).item()
for _ in range(10):
    opt.zero_grad()
    e = pair_energy_torch(fixed)
    e.backward()
    opt.step()
assert pair_energy_torch(fixed).item() < e0
print("ok: energy leaf never reaches the coordinates")
