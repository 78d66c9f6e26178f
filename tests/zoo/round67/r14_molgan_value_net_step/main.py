"""
expect: GL005 solver.py:52
dynamic: confirm
source: https://github.com/kfzyqin/Implementation-MolGAN-PyTorch/issues/10

Molecule generation with a MolGAN-style model: a generator emits soft adjacency and
atom-type tensors, a discriminator D scores them and a reward network V learns a
non-differentiable chemical property. In the PyTorch port the generator loss (WGAN term
plus the RL term from V) is back-propagated with retain_graph=True and the generator
optimizer steps immediately; then the reward network's regression loss is computed from
the value prediction that was produced on the same fake graphs and back-propagated.
That second backward still runs through the generator's graph, whose linear layers
saved their weights, and g_optimizer.step() has just updated those weights in place, so
autograd aborts with "one of the variables needed for gradient computation has been
modified by an inplace operation" (the issue reports it at the generator's nodes layer,
AddmmBackward). The asserts catch that error in the default path and then show the fix
(V is trained on detached fake graphs) runs, updates the generator and lowers the reward
network's loss.
"""
import torch

from models import N_ATOMS, N_ATOM_TYPES, N_BOND_TYPES, Generator, GraphCritic
from solver import Solver

torch.manual_seed(0)
torch.set_num_threads(1)


def real_batch(n):
    nodes = torch.zeros(n, N_ATOMS, N_ATOM_TYPES)
    nodes[..., 0] = 1.0                                  # carbon-rich molecules
    edges = torch.zeros(n, N_BOND_TYPES, N_ATOMS, N_ATOMS)
    edges[:, 1] = 1.0
    return edges, nodes


def build():
    torch.manual_seed(1)
    return Solver(Generator(), GraphCritic(), GraphCritic(sigmoid_out=True))


# ---- buggy default path ----
solver = build()
edges, nodes = real_batch(16)
z = torch.randn(16, 8)
raised = None
try:
    solver.train_step(edges, nodes, z)
except RuntimeError as e:
    raised = str(e)
print("buggy step:", (raised or "no error")[:110])
assert raised is not None and "modified by an inplace operation" in raised

# ---- fixed: the reward network is trained on detached fake graphs ----
solver = build()
g_before = [p.detach().clone() for p in solver.G.parameters()]
v_losses = []
for step in range(80):
    edges, nodes = real_batch(16)
    z = torch.randn(16, 8)
    _, _, lv = solver.train_step(edges, nodes, z, detach_for_value=True)
    v_losses.append(lv)
moved = sum((p.detach() - b).abs().sum().item() for p, b in zip(solver.G.parameters(), g_before))
print(f"fixed: V loss first {sum(v_losses[:10]) / 10:.4f} last {sum(v_losses[-10:]) / 10:.4f}, G moved {moved:.3f}")
assert moved > 0
assert sum(v_losses[-10:]) / 10 < sum(v_losses[:10]) / 10
print("OK: optimizer.step() between the two backwards breaks the second one; detaching fixes it")
