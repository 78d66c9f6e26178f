"""
expect: none
dynamic: dismiss
source: https://github.com/cvjena/GradStats4PINNs/blob/HEAD/grad_stats.py

A PINN for a 1-D Poisson problem balances its boundary term with a learning-rate-annealing
weight computed from gradient statistics: per Linear layer it calls autograd.grad(...,
retain_graph=True) on each loss term, inside every training step. retain_graph here is
needed because the same step's graph is reused for several grad calls and the final backward;
nothing is carried into the next step (the weight is built from grads without create_graph,
so it holds no graph). The asserts show the weight carries no history, the graph size stays
constant across steps, and the PDE solution improves.
"""
import torch
from torch import nn

from grad_stats import AnnealedWeight

torch.manual_seed(0)
torch.set_num_threads(1)

net = nn.Sequential(nn.Linear(1, 20), nn.Tanh(), nn.Linear(20, 20), nn.Tanh(), nn.Linear(20, 1))
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
weight = AnnealedWeight()

x_bc = torch.tensor([[0.0], [1.0]])
u_bc = torch.zeros(2, 1)
pi = torch.pi


def residual_loss(x):
    x = x.requires_grad_(True)
    u = net(x)
    du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
    f = -(pi ** 2) * torch.sin(pi * x)
    return ((d2u - f) ** 2).mean()


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def l2_error():
    xs = torch.linspace(0, 1, 101)[:, None]
    with torch.no_grad():
        return (net(xs) - torch.sin(pi * xs)).abs().max().item()


x_eval = torch.linspace(0.05, 0.95, 50)[:, None]
err0 = l2_error()
res0 = residual_loss(x_eval.clone()).item()
sizes = []
for step in range(600):
    x = torch.rand(64, 1)
    loss_res = residual_loss(x)
    loss_bc = ((net(x_bc) - u_bc) ** 2).mean()
    if step % 10 == 0:
        lam = weight.update(loss_res, loss_bc, net)
    loss = loss_res + lam * loss_bc
    sizes.append(graph_size(loss))
    opt.zero_grad()
    loss.backward()
    opt.step()

assert not lam.requires_grad and lam.grad_fn is None
assert len(set(sizes)) == 1, set(sizes)  # no history accumulates across steps
res1 = residual_loss(x_eval.clone()).item()
assert res1 < 0.2 * res0, (res0, res1)  # the PDE residual is being trained
assert l2_error() < err0, (err0, l2_error())
print("ok", res0, res1, err0, l2_error(), float(lam))
