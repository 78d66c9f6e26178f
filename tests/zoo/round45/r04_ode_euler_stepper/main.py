"""expect: GL002 solvers.py:17
dynamic: confirm
source: https://github.com/NeuroDiffGym/neurodiffeq/blob/9f6d6e318ce96800cce06243fdcc58ed5999764f/neurodiffeq/hypersolver/numerical_solvers.py

The Euler stepper of a hypersolver wraps the right-hand side of every step in torch.tensor(...),
rebuilding the derivative values as a fresh tensor (in the library the solver is only run after the
correction net is fitted). Here a trainer reuses the stepper to fit a damped oscillator whose damping and
stiffness are nn.Parameters of the dynamics module, integrating through the solver and matching an
observed trajectory. Because each step's derivative is copied out of the graph, the physical
parameters the optimizer holds never receive a gradient; only the hypersolver correction net trains, and
it quietly absorbs the model error instead. The asserts show the dynamics parameters have grad None and
do not move, the correction net does get gradients, and a stepper that stacks the derivative tensors
recovers the true damping.
"""
import warnings

import torch
import torch.nn as nn

from solvers import Euler

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True")


class Oscillator(nn.Module):
    def __init__(self, damping=0.1, stiffness=1.0):
        super().__init__()
        self.damping = nn.Parameter(torch.tensor(damping))
        self.stiffness = nn.Parameter(torch.tensor(stiffness))

    def forward(self, x, v, t):
        return v, -self.stiffness * x - self.damping * v


class StackedEuler(Euler):
    def solve(self, func, u0, t0, tn, n_steps, hypernet=None):
        ts = torch.linspace(t0, tn, n_steps + 1)
        us = [u0]
        h = (tn - t0) / n_steps
        for t in ts[:-1]:
            u_new = us[-1] + h * torch.stack(self.step(func, us[-1], t, h))
            us.append(u_new)
        return ts, torch.stack(us, dim=0)


def fit(solver, dyn, hypernet, target, steps=150):
    params = list(dyn.parameters()) + (list(hypernet.parameters()) if hypernet is not None else [])
    opt = torch.optim.Adam(params, lr=0.05)
    hyper_grad = False
    for _ in range(steps):
        _, us = solver.solve(dyn, torch.tensor([1.0, 0.0]), 0.0, 5.0, 50, hypernet=hypernet)
        loss = ((us - target) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        if hypernet is not None:
            hyper_grad = hyper_grad or hypernet[0].weight.grad.abs().sum().item() > 0
        opt.step()
    return loss.item(), hyper_grad


torch.manual_seed(0)
torch.set_num_threads(1)

true = Oscillator(damping=0.6, stiffness=2.0)
with torch.no_grad():
    _, target = StackedEuler().solve(true, torch.tensor([1.0, 0.0]), 0.0, 5.0, 50)

dyn = Oscillator()
init = [p.detach().clone() for p in dyn.parameters()]
hyper = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))
_, hyper_grad = fit(Euler(), dyn, hyper, target)
assert dyn.damping.grad is None and dyn.stiffness.grad is None
assert all(torch.equal(p, q) for p, q in zip(dyn.parameters(), init))
assert hyper_grad                                            # only the correction net learns

dyn_ok = Oscillator()
loss_ok, _ = fit(StackedEuler(), dyn_ok, None, target, steps=300)
assert dyn_ok.damping.grad is not None
assert abs(dyn_ok.damping.item() - 0.6) < 0.05 and abs(dyn_ok.stiffness.item() - 2.0) < 0.05

print("damping after fit, copied steps: %.3f | stacked steps: %.3f" % (dyn.damping.item(), dyn_ok.damping.item()))
