"""
expect: none
dynamic: dismiss
source: kinds check 51, kind 2

Physics-informed network for the 1-D heat equation. The residual loss takes input
gradients with create_graph=True and never toggles requires_grad, so the PDE
residual trains the network through the derivatives.
"""
import torch
import torch.nn as nn

from residuals import heat_residual_loss

torch.manual_seed(3)

u_net = nn.Sequential(nn.Linear(2, 24), nn.Tanh(), nn.Linear(24, 24), nn.Tanh(), nn.Linear(24, 1))
opt = torch.optim.Adam(u_net.parameters(), lr=1e-3)

for it in range(3):
    collocation = torch.rand(64, 2, requires_grad=True)
    opt.zero_grad()
    pde = heat_residual_loss(u_net, collocation)
    pde.backward()
    g = u_net[0].weight.grad
    assert g is not None and g.abs().sum() > 0
    opt.step()
print("ok: residual loss trains the PINN")
