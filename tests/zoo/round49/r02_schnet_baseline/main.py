"""
expect: GL002 model.py:22, GL003 loss.py:8
dynamic: confirm
source: https://github.com/DevinTDHa/PML-SchNet/blob/60a77f7651d64135fc16aaa30fe5de3c3b62b9f3/src/loss.py

Two baselines from a SchNet reproduction project (src/baseline.py and src/loss.py of the same
repository). The atomwise energy baseline sums per-atom energies per molecule by rebuilding them
with torch.tensor([...], requires_grad=True): the molecular energies become a fresh leaf, the
training loss backpropagates without error, and not one model parameter receives a gradient. The
MD17 energy+force objective takes forces with autograd.grad but without create_graph, so the forces
have no history; calling requires_grad_() on them only makes them a new leaf, which lets a force-
only objective call backward() instead of raising, while the force term never reaches the network.
The asserts show: no gradient at all for the atomwise baseline (the stacked version gets one); and
for the force model, a force-only loss leaves every parameter without a gradient and the force term
adds nothing to the energy gradient, while the create_graph version trains on forces (every weight
matrix gets a force gradient).
"""
import warnings

import torch

from loss import energy_force_loss, energy_force_loss_graph
from model import AtomwiseBaseline, FlatCoordinateEnergy

torch.manual_seed(0)
torch.set_num_threads(1)
warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar")


def qm9_like_batch(n_mol=6):
    counts = torch.randint(3, 7, (n_mol,))
    n = int(counts.sum())
    return {"Z": torch.randint(1, 10, (n,)), "R": torch.randn(n, 3), "N": counts}, torch.randn(n_mol)


def energy_stage(differentiable_sum):
    torch.manual_seed(1)
    model = AtomwiseBaseline(differentiable_sum=differentiable_sum)
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    before = [p.detach().clone() for p in model.parameters()]
    for _ in range(3):
        batch, target = qm9_like_batch()
        loss = torch.nn.functional.mse_loss(model(batch), target)
        opt.zero_grad()
        loss.backward()
        opt.step()
    has_grad = [p.grad is not None for p in model.parameters()]
    moved = any(not torch.equal(b, p.detach()) for b, p in zip(before, model.parameters()))
    return has_grad, moved


def param_grads(model, loss):
    grads = torch.autograd.grad(loss, list(model.parameters()), allow_unused=True, retain_graph=True)
    return [torch.zeros_like(p) if g is None else g for p, g in zip(model.parameters(), grads)]


def force_stage(loss_fn):
    torch.manual_seed(2)
    n_atoms = 4
    model = FlatCoordinateEnergy(n_atoms)
    R = torch.randn(8, 3 * n_atoms, requires_grad=True)
    E = torch.randn(8, 1)
    F = torch.randn(8, 3 * n_atoms)

    joint = loss_fn(model(R), R, E, F)
    energy_only = (0.01 * (E - model(R)).abs() ** 2).mean()
    g_joint = param_grads(model, joint)
    g_energy = param_grads(model, energy_only)
    force_adds_nothing = all(torch.allclose(a, b) for a, b in zip(g_joint, g_energy))

    force_only = loss_fn(model(R), R, E, F, rho=0.0)
    model.zero_grad()
    force_only.backward()
    force_only_grads = [p.grad is not None and p.grad.abs().sum().item() > 0 for p in model.parameters() if p.dim() > 1]
    return force_adds_nothing, force_only_grads


has_grad_bug, moved_bug = energy_stage(differentiable_sum=False)
has_grad_fix, moved_fix = energy_stage(differentiable_sum=True)
print("atomwise baseline, torch.tensor rebuild: params with grad =", sum(has_grad_bug), "of", len(has_grad_bug))
print("atomwise baseline, torch.stack        : params with grad =", sum(has_grad_fix), "of", len(has_grad_fix))
assert not any(has_grad_bug) and not moved_bug
assert all(has_grad_fix) and moved_fix

same_bug, force_only_bug = force_stage(energy_force_loss)
same_fix, force_only_fix = force_stage(energy_force_loss_graph)
print("force loss, requires_grad_ switch: force term adds nothing =", same_bug, "| force-only grads:", force_only_bug)
print("force loss, create_graph         : force term adds nothing =", same_fix, "| force-only grads:", force_only_fix)
assert same_bug and not any(force_only_bug)
assert not same_fix and all(force_only_fix)
