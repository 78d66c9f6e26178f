"""
expect: GL001 51
dynamic: confirm
source: https://github.com/facebookresearch/flow_matching/issues/59

An issue on a flow-matching library reports that compute_likelihood(enable_grad=True)
returns a log-probability whose gradients are None, so maximum-likelihood training of
the velocity field does nothing; the fix (PR 91) drops the .detach() calls in the ODE
dynamics when gradients are wanted. Here a tiny solver integrates the state and the
divergence with Euler steps, and its dynamics return detached values, so the NLL term
added to a conditional flow-matching loss never reaches the velocity net. The
asserts show the NLL weight leaves the gradient unchanged, unlike the fixed solver.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Velocity(nn.Module):
    def __init__(self, d=2, h=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d + 1, h), nn.Tanh(), nn.Linear(h, d))

    def forward(self, x, t):
        return self.net(torch.cat([x, t.expand(x.shape[0], 1)], dim=1))


def log_p0(x):
    return -0.5 * (x ** 2).sum(1) - x.shape[1] * 0.5 * math.log(2 * math.pi)


class ODESolver:
    def __init__(self, velocity, keep_graph=False):
        self.velocity = velocity
        self.keep_graph = keep_graph

    def _dynamics(self, t, xt, enable_grad):
        with torch.set_grad_enabled(True):
            if not xt.requires_grad:
                xt.requires_grad_()
            ut = self.velocity(xt, t)
            div = 0.0
            for i in range(ut.shape[1]):
                div = div + torch.autograd.grad(ut[:, i].sum(), xt, create_graph=enable_grad)[0][:, i]
        if self.keep_graph and enable_grad:
            return ut, div
        return ut.detach(), div.detach()

    def compute_likelihood(self, x1, steps=8, enable_grad=False):
        """Integrate from data (t=1) back to noise (t=0), accumulating the divergence."""
        xt, log_det = x1, torch.zeros(x1.shape[0])
        dt = 1.0 / steps
        with torch.set_grad_enabled(enable_grad):
            for k in range(steps):
                t = torch.tensor([[1.0 - k * dt]])
                ut, div = self._dynamics(t, xt, enable_grad)
                xt = xt - dt * ut
                log_det = log_det - dt * div
        return xt, log_p0(xt) + log_det


def cfm_loss(vel, x1):
    x0 = torch.randn_like(x1)
    t = torch.rand(x1.shape[0], 1)
    xt = (1 - t) * x0 + t * x1
    return ((vel.net(torch.cat([xt, t], 1)) - (x1 - x0)) ** 2).mean()


data = torch.randn(64, 2) * 0.5 + torch.tensor([1.0, -1.0])
vel = Velocity()
opt = torch.optim.Adam(vel.parameters(), lr=1e-3)


def total_loss(solver, nll_weight, seed=1):
    torch.manual_seed(seed)
    _, logp = solver.compute_likelihood(data, enable_grad=True)
    return cfm_loss(vel, data) + nll_weight * (-logp.mean())


buggy = ODESolver(vel)
for _ in range(3):
    opt.zero_grad()
    total_loss(buggy, 0.1).backward()
    opt.step()


def grad_vec(solver, w):
    vel.zero_grad()
    total_loss(solver, w).backward()
    return torch.cat([p.grad.flatten() for p in vel.parameters()])


_, logp = buggy.compute_likelihood(data, enable_grad=True)
g = torch.autograd.grad(logp.sum(), list(vel.parameters()), allow_unused=True)
assert all(x is None for x in g), "log-likelihood has no path to the velocity net"
assert torch.allclose(grad_vec(buggy, 0.0), grad_vec(buggy, 5.0))

fixed = ODESolver(vel, keep_graph=True)
assert not torch.allclose(grad_vec(fixed, 0.0), grad_vec(fixed, 5.0))
print("ok: detached ODE dynamics make the NLL term train nothing")
