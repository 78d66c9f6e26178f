"""
expect: GL003 lm_trainer.py:21
dynamic: confirm
source: https://github.com/fabiodimarco/torch-levenberg-marquardt/issues/7

Physics-informed networks. A user wanted to train a PINN for an ODE with a
Levenberg-Marquardt trainer. The trainer computes residuals and their Jacobian
inside a method decorated with `@torch.no_grad()` (it only needs the Jacobian of
the residuals with respect to the weights), but a PINN residual itself calls
`torch.autograd.grad(u, t, create_graph=True)` to get du/dt. Run inside the
no_grad region, the network output has no graph, so the derivative call fails
with "element 0 of tensors does not require grad" and no training happens; the
residual function is a function that needs autograd, called from a no_grad
region. The program catches that error on the default path, then runs the same
trainer with the residual evaluated under `torch.enable_grad()` and checks that
the physics residual of du/dt = -u, u(0) = 1 drops and the network approaches
exp(-t).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn as nn

from lm_trainer import LevenbergMarquardtTrainer

torch.manual_seed(0)
torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


class PINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(1, 12), nn.Tanh(), nn.Linear(12, 12), nn.Tanh(), nn.Linear(12, 1))

    def forward(self, t):
        return self.net(t)


def ode_residuals(model, t):
    t = t.clone().requires_grad_(True)
    u = model(t)
    u_t = torch.autograd.grad(u, t, torch.ones_like(u), create_graph=True)[0]
    physics = (u_t + u).squeeze(1)
    t0 = torch.zeros(1, 1)
    initial = (model(t0) - 1.0).reshape(1)
    return torch.cat([physics, 10.0 * initial])


t_colloc = torch.linspace(0, 1, 25).unsqueeze(1)

# --- default path: the residual runs inside the trainer's no_grad region
model = PINN()
trainer = LevenbergMarquardtTrainer(model, ode_residuals)
before = [p.clone() for p in model.parameters()]
try:
    trainer.training_step(t_colloc)
    raise AssertionError("expected the PINN residual to fail under no_grad")
except RuntimeError as err:
    assert "does not require grad" in str(err), err
assert all(torch.equal(a, b) for a, b in zip(before, model.parameters())), "nothing was trained"

# --- fixed: evaluate the residual with grad enabled inside the no_grad method
model = PINN()
trainer = LevenbergMarquardtTrainer(model, ode_residuals, grad_in_residual=True)
losses = [trainer.training_step(t_colloc) for _ in range(40)]
assert losses[-1] < 1e-3 * losses[0], (losses[0], losses[-1])
with torch.no_grad():
    err = (model(t_colloc) - torch.exp(-t_colloc)).abs().max().item()
assert err < 1e-2, err
print(f"LM residual {losses[0]:.3e} -> {losses[-1]:.3e}; max |u - exp(-t)| = {err:.2e}")
