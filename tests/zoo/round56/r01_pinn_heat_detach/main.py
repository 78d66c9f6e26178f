"""
expect: GL001 heat_equation.py:25
dynamic: confirm
source: https://github.com/kanhaiya-gupta/physics-informed-neural-network/blob/acbefe9bec1a7c4d0b336da2081b51346a514b7d/src/equations/heat_equation.py

The original physics-informed net for the 1-D heat equation builds collocation
points x and t with requires_grad=True in its trainer, runs the MLP on them and
hands the prediction to HeatEquation.compute_pde_loss.  There the prediction is
re-made as `u.clone().detach().requires_grad_(True)` ("ensure u is part of the
computation graph"), so the derivatives of u with respect to x and t no longer
exist; autograd.grad(..., allow_unused=True) returns None and the code swaps in
zero tensors.  The PDE residual is therefore identically 0: the physics term
adds nothing and the net is fitted only to the boundary and initial data.  The
asserts show that the PDE loss is exactly 0 for a random net, has no gradient
path to any weight, and that training leaves the true residual high, while the
repaired version (u kept attached) gives a non-zero physics loss that trains.
"""
import torch
import torch.nn as nn

from heat_equation import HeatEquation

torch.manual_seed(0)
torch.set_num_threads(1)


class HeatPINN(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 24), nn.Tanh(), nn.Linear(24, 24), nn.Tanh(), nn.Linear(24, 1))

    def forward(self, points):
        return self.net(points)


def make_points(n=10):
    xs = torch.linspace(0, 1, n)
    ts = torch.linspace(0, 1, n)
    X, T = torch.meshgrid(xs, ts, indexing="ij")
    x = X.reshape(-1, 1).clone().requires_grad_(True)
    t = T.reshape(-1, 1).clone().requires_grad_(True)
    return x, t


def true_residual(model, eq, x, t):
    # independent check of u_t - alpha*u_xx using the attached prediction
    u = model(torch.cat([x, t], dim=1))
    u_x = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
    u_xx = torch.autograd.grad(u_x.sum(), x, create_graph=True)[0]
    u_t = torch.autograd.grad(u.sum(), t, create_graph=True)[0]
    return eq.residual(u_t, u_xx).pow(2).mean().item()


def train(keep_graph, epochs=150):
    torch.manual_seed(0)
    model = HeatPINN()
    eq = HeatEquation(alpha=0.1, keep_graph=keep_graph)
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    x, t = make_points()
    pde_hist = []
    for _ in range(epochs):
        opt.zero_grad()
        u = model(torch.cat([x, t], dim=1))
        pde = eq.compute_pde_loss(x, t, u)
        loss = pde + eq.compute_bc_loss(x, u) + eq.compute_ic_loss(x, t, u)
        loss.backward()
        opt.step()
        pde_hist.append(pde.item())
    return model, eq, x, t, pde_hist


# --- the physics term of a fresh net, with the original code ---
torch.manual_seed(0)
probe = HeatPINN()
x, t = make_points()
u0 = probe(torch.cat([x, t], dim=1))
pde_bug = HeatEquation(0.1, keep_graph=False).compute_pde_loss(x, t, u0)
grads = torch.autograd.grad(pde_bug, list(probe.parameters()), allow_unused=True)
assert pde_bug.item() == 0.0
assert all(g is None for g in grads), "detached u: no weight can see the PDE loss"
assert true_residual(probe, HeatEquation(0.1), x, t) > 0.0

pde_fix = HeatEquation(0.1, keep_graph=True).compute_pde_loss(x, t, u0)
grads_fix = torch.autograd.grad(pde_fix, list(probe.parameters()), allow_unused=True)
assert pde_fix.item() > 0.0
assert grads_fix[0] is not None and grads_fix[0].abs().sum() > 0  # first-layer weight

# --- full training runs ---
m_bug, eq_bug, xb, tb, hist_bug = train(keep_graph=False)
m_fix, eq_fix, xf, tf, hist_fix = train(keep_graph=True)
assert max(hist_bug) == 0.0  # physics loss never contributed
res_bug = true_residual(m_bug, eq_bug, xb, tb)
res_fix = true_residual(m_fix, eq_fix, xf, tf)
assert res_fix < res_bug, (res_fix, res_bug)
print(f"true PDE residual after training: detached={res_bug:.4f} attached={res_fix:.4f}")
