"""
expect: none
dynamic: dismiss
source: kinds check 19, kind 3 (written for this check)

A physics-informed net for the 1-D heat equation is trained with the project's
weight-perturbation optimizer: `perturb()` pushes weights along the gradient in place
under `torch.no_grad()` and `restore_and_step()` undoes it and updates. Between the
two backward calls the trainer runs a fresh forward (and fresh PDE residual) at the
perturbed weights, so no graph is reused after the in-place edit. The asserts show the
second gradient really is taken at the perturbed point and that training lowers the loss.
"""
import torch
import torch.nn as nn
from torch.optim.optimizer import Optimizer


class WeightPerturb(Optimizer):
    def __init__(self, params, lr=1e-3, gamma=0.01):
        super().__init__(params, dict(lr=lr, gamma=gamma))

    @torch.no_grad()
    def perturb(self):
        for g in self.param_groups:
            for p in g["params"]:
                if p.grad is not None:
                    d = g["gamma"] * p.grad.sign()
                    p += d
                    self.state[p]["delta"] = d

    @torch.no_grad()
    def restore_and_step(self):
        for g in self.param_groups:
            for p in g["params"]:
                d = self.state[p].pop("delta", None)
                if d is not None:
                    p -= d
                    p -= g["lr"] * p.grad


class HeatPINN(nn.Module):
    def __init__(self, kappa=0.1):
        super().__init__()
        self.kappa = kappa
        self.f = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))

    def residual_loss(self, xt, x0, u0):
        xt = xt.clone().requires_grad_(True)
        u = self.f(xt)
        du = torch.autograd.grad(u.sum(), xt, create_graph=True)[0]
        u_xx = torch.autograd.grad(du[:, 0].sum(), xt, create_graph=True)[0][:, 0]
        pde = (du[:, 1] - self.kappa * u_xx).pow(2).mean()
        ic = (self.f(x0).squeeze(-1) - u0).pow(2).mean()
        return pde + ic


torch.manual_seed(8)
pinn = HeatPINN()
opt = WeightPerturb(pinn.parameters(), lr=5e-3, gamma=1e-3)
colloc = torch.rand(128, 2)
x0 = torch.stack([torch.rand(64), torch.zeros(64)], 1)
u0 = torch.sin(torch.pi * x0[:, 0])

first = None
for it in range(30):
    opt.zero_grad()
    loss = pinn.residual_loss(colloc, x0, u0)
    loss.backward()
    g_clean = [p.grad.clone() for p in pinn.parameters()]
    opt.perturb()
    opt.zero_grad()
    pinn.residual_loss(colloc, x0, u0).backward()
    if it == 0:
        first = loss.item()
        assert any(not torch.allclose(a, p.grad) for a, p in zip(g_clean, pinn.parameters()))
    opt.restore_and_step()
assert pinn.residual_loss(colloc, x0, u0).item() < first
print("k3_ok_physics: fresh forward after perturb(); loss", first, "->", loss.item())
