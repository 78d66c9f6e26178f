"""
expect: none
dynamic: dismiss
source: https://github.com/PINA-org/PINA/pull/469

Self-adaptive PINN (per-point loss weights trained by gradient ascent, model by
descent). The solver re-creates its collocation points with
`samples.detach(); samples.requires_grad_()` before computing the residual so
that u_x, u_xx come from a fresh graph. Those points are inputs, not values
that were meant to carry parameter history, so nothing is cut: the network
still gets its gradient through u(x). The asserts check that the model's
weights receive non-zero gradients, the PDE loss falls, and the adaptive
weights grow (ascent) instead of cancelling out as in the reported bug.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class PointWeights(nn.Module):
    def __init__(self, n_points):
        super().__init__()
        self.raw = nn.Parameter(torch.zeros(n_points, 1))

    def forward(self):
        return torch.sigmoid(self.raw)


class SelfAdaptivePoisson:
    """Solve u'' = -pi^2 sin(pi x) on [0, 1] with u(0) = u(1) = 0."""

    def __init__(self, n_points=64):
        self.model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 1))
        self.weights = PointWeights(n_points)
        self.opt_model = torch.optim.Adam(self.model.parameters(), lr=3e-3)
        self.opt_weights = torch.optim.Adam(self.weights.parameters(), lr=1e-2)
        self.points = torch.rand(n_points, 1)
        self.boundary = torch.tensor([[0.0], [1.0]])

    def residual(self, samples):
        samples = samples.detach()
        samples.requires_grad_()
        u = self.model(samples)
        du = torch.autograd.grad(u.sum(), samples, create_graph=True)[0]
        d2u = torch.autograd.grad(du.sum(), samples, create_graph=True)[0]
        return d2u + math.pi ** 2 * torch.sin(math.pi * samples)

    def weighted_pde_loss(self):
        r = self.residual(self.points)
        return (self.weights() * r ** 2).mean()

    def step(self):
        self.opt_model.zero_grad()
        self.opt_weights.zero_grad()
        pde = self.weighted_pde_loss()
        bc = self.model(self.boundary).pow(2).mean()
        (pde + bc).backward()
        # the weights maximise the same objective the model minimises
        for p in self.weights.parameters():
            p.grad.neg_()
        self.opt_model.step()
        self.opt_weights.step()
        return pde.item()


solver = SelfAdaptivePoisson()
w0 = solver.weights().detach().clone()
losses = []
for it in range(150):
    losses.append(solver.step())
    if it == 0:
        grads = [p.grad.abs().sum().item() for p in solver.model.parameters()]

print("pde loss", losses[0], "->", losses[-1])
assert all(g > 0 for g in grads)                      # model trained through u(x)
assert losses[-1] < 0.2 * losses[0]                   # and it learns the PDE
assert (solver.weights().detach() - w0).mean() > 0    # adaptive weights ascend
