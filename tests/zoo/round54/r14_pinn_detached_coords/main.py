"""
expect: GL003 physics.py:11
dynamic: confirm
source: https://github.com/latteine1217/pinns-mvp/blob/ac5dd64082f732896f35e4f100421f0a53b83f51/pinnx/physics/ns_2d.py

A PINN for the 1-D Poisson problem u'' = -pi^2 sin(pi x) with u(0) = u(1) = 0. The derivative
helper in physics.py is written to never fail: when the coordinates do not require grad it replaces
them with x.clone().detach().requires_grad_(True), a fresh leaf that the network output was never
computed from, so autograd.grad (allow_unused=True) returns None, which the helper turns into zeros.
The trainer samples its collocation points as plain tensors, so u_x and u_xx are silently zero, the
PDE residual becomes a constant and only the boundary term trains the network. The asserts show
that the PDE loss has no graph, that the parameter gradients equal those of the boundary loss
alone, and that the PDE loss never moves, while the intended version (coordinates marked
requires_grad before the forward pass) gives a different gradient and drives the residual down.
"""
import math

import torch
import torch.nn as nn

import physics

torch.manual_seed(0)
torch.set_num_threads(1)


def make_model():
    torch.manual_seed(1)
    return nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))


def source(x):
    return -(math.pi ** 2) * torch.sin(math.pi * x)


x_bc = torch.tensor([[0.0], [1.0]])


def losses(model, x_col, mark_inputs):
    if mark_inputs:
        x_col = x_col.clone().requires_grad_(True)
    u = model(x_col)
    pde = physics.poisson_residual(u, x_col, source(x_col)).pow(2).mean()
    bc = model(x_bc).pow(2).mean()
    return pde, bc


def grads_of(model, loss):
    model.zero_grad()
    loss.backward(retain_graph=True)
    return [p.grad.clone() for p in model.parameters()]


x_col = torch.rand(64, 1)

# buggy trainer: collocation points are plain tensors
model = make_model()
pde, bc = losses(model, x_col, mark_inputs=False)
assert not pde.requires_grad, "the PDE term lost its graph"
g_total = grads_of(model, pde + bc)
g_bc = grads_of(model, bc)
assert all(torch.equal(a, b) for a, b in zip(g_total, g_bc)), "only the boundary term reaches the weights"

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
pde_hist = []
for _ in range(200):
    pde, bc = losses(model, x_col, mark_inputs=False)
    opt.zero_grad()
    (pde + bc).backward()
    opt.step()
    pde_hist.append(pde.item())
assert max(pde_hist) - min(pde_hist) < 1e-9, "the PDE residual never changes"

# intended trainer: coordinates require grad before the forward pass
fixed = make_model()
pde_f, bc_f = losses(fixed, x_col, mark_inputs=True)
g_total_f = grads_of(fixed, pde_f + bc_f)
g_bc_f = grads_of(fixed, bc_f)
assert any(not torch.allclose(a, b) for a, b in zip(g_total_f, g_bc_f)), "PDE term trains the weights"
opt_f = torch.optim.Adam(fixed.parameters(), lr=1e-2)
first = pde_f.item()
for _ in range(200):
    pde_f, bc_f = losses(fixed, x_col, mark_inputs=True)
    opt_f.zero_grad()
    (pde_f + bc_f).backward()
    opt_f.step()
assert pde_f.item() < 0.1 * first, (first, pde_f.item())
print("buggy PDE loss stuck at %.3f; intended PDE loss %.3f -> %.4f" % (pde_hist[-1], first, pde_f.item()))
