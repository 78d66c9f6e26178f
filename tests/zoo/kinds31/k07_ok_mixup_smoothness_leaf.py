"""
expect: none
dynamic: dismiss
source: kinds check 31, kind 4

A density-ratio regressor is regularised by the squared input gradient at mixup
points. The interpolation is built under no_grad and deliberately made a fresh
leaf in one expression, then torch.autograd.grad differentiates with respect to
it; the penalty still trains the regressor via create_graph.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

ratio_net = nn.Sequential(nn.Linear(5, 32), nn.Tanh(), nn.Linear(32, 1))
opt = torch.optim.Adam(ratio_net.parameters(), lr=1e-3)
xs = torch.randn(64, 5)
xt = torch.randn(64, 5) + 0.5

for _ in range(2):
    with torch.no_grad():
        lam = torch.rand(64, 1)
        mid = (lam * xs + (1 - lam) * xt).requires_grad_(True)
    r = ratio_net(mid)
    (g,) = torch.autograd.grad(r.sum(), mid, create_graph=True)
    smooth = g.pow(2).sum(dim=1).mean()
    fit = nn.functional.softplus(-ratio_net(xs)).mean() + nn.functional.softplus(ratio_net(xt)).mean()
    loss = fit + 0.1 * smooth
    opt.zero_grad()
    loss.backward()
    opt.step()

assert mid.is_leaf and mid.requires_grad
assert g.abs().sum() > 0
ratio_net.zero_grad()
(g2,) = torch.autograd.grad(ratio_net(mid).sum(), mid, create_graph=True)
g2.pow(2).sum(dim=1).mean().backward()
assert ratio_net[0].weight.grad is not None and ratio_net[0].weight.grad.abs().sum() > 0
print("ok: input-gradient penalty is live", smooth.item())
