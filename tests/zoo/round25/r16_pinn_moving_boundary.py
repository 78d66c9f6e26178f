"""
expect: none
dynamic: dismiss
source: https://github.com/erfanhamdi/pinn-torch/issues/1

The question: for a Neumann condition on a moving boundary x_b = 2*pi*exp(-t_b),
setting `x_b.requires_grad = True` errors because x_b is not a leaf. Here the PINN
builds the boundary coordinate from t, detaches it and switches requires_grad on,
so that du/dx can be taken at the boundary. That is a fresh input leaf for a
spatial derivative, not a cut in the parameter path: the network is still trained
through u and u_x. The asserts check the boundary loss gives every layer a gradient
and that du/dx matches a finite difference.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class PINN(nn.Module):
    def __init__(self, hid=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, hid), nn.Tanh(), nn.Linear(hid, hid), nn.Tanh(), nn.Linear(hid, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x, t], dim=1))


def derivative(u, x):
    return torch.autograd.grad(u, x, grad_outputs=torch.ones_like(u), create_graph=True)[0]


class BoundaryLoss:
    def __init__(self, model):
        self.model = model

    def neumann(self, t_b):
        x_b = 2 * math.pi * torch.exp(-t_b)
        x_b = x_b.detach().requires_grad_(True)
        u = self.model(x_b, t_b)
        u_x = derivative(u, x_b)
        return (u_x ** 2).mean(), u, x_b, u_x

    def dirichlet(self, t_b):
        x0 = torch.zeros_like(t_b)
        return (self.model(x0, t_b) - torch.sin(t_b)).pow(2).mean()


model = PINN()
bl = BoundaryLoss(model)
t_b = torch.rand(32, 1)
loss_n, u, x_b, u_x = bl.neumann(t_b)
(loss_n + bl.dirichlet(t_b)).backward()
for p in model.parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0

with torch.no_grad():
    h = 1e-3
    fd = (model(x_b + h, t_b) - model(x_b - h, t_b)) / (2 * h)
assert torch.allclose(u_x, fd, atol=1e-3)

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
first = None
for _ in range(40):
    loss = bl.neumann(t_b)[0] + bl.dirichlet(t_b)
    first = first if first is not None else loss.item()
    opt.zero_grad()
    loss.backward()
    opt.step()
assert loss.item() < first
print("ok")
