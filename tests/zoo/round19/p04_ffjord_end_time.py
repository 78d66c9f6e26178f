"""
expect: GL002 50
dynamic: confirm
source: https://github.com/rtqichen/ffjord/pull/4

The PR title says it: with `train_T` on, FFJORD's learnable integration end time (`sqrt_end_time`)
"is never receiving gradient". The CNF layer builds its integration interval as
`torch.tensor([0.0, self.sqrt_end_time * self.sqrt_end_time])`, which rebuilds a new tensor from
the values of a list holding a parameter-dependent tensor, so the end time is a constant to the
ODE solve. This program rebuilds a 2-D continuous normalizing flow (Euler solver, exact trace for
the log-density) with a trainable end time; after training, sqrt_end_time.grad is None and its
value never moved, while building the interval with torch.stack gives it a gradient.
"""
import math
import torch
import torch.nn as nn

torch.manual_seed(0)


class ODEFunc(nn.Module):
    def __init__(self, dim=2, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, hidden), nn.Tanh(), nn.Linear(hidden, dim))

    def forward(self, t, z):
        return self.net(torch.cat([z, t.expand(z.shape[0], 1)], dim=1))


def divergence(f, z):
    div = 0.0
    for i in range(z.shape[1]):
        div = div + torch.autograd.grad(f[:, i].sum(), z, create_graph=True)[0][:, i]
    return div


class CNF(nn.Module):
    def __init__(self, odefunc, T=1.0, train_T=True, steps=8, stack_times=False):
        super().__init__()
        self.odefunc = odefunc
        self.steps = steps
        self.stack_times = stack_times
        if train_T:
            self.sqrt_end_time = nn.Parameter(torch.sqrt(torch.tensor(T)))

    def forward(self, z, logpz):
        if self.stack_times:
            integration_times = torch.stack([torch.zeros(()), self.sqrt_end_time * self.sqrt_end_time])
        else:
            integration_times = torch.tensor([0.0, self.sqrt_end_time * self.sqrt_end_time]).to(z)
        t0, t1 = integration_times[0], integration_times[1]
        dt = (t1 - t0) / self.steps
        t = t0
        for _ in range(self.steps):
            z = z.requires_grad_(True) if not z.requires_grad else z
            f = self.odefunc(t.reshape(1, 1), z)
            logpz = logpz - dt * divergence(f, z)
            z = z + dt * f
            t = t + dt
        return z, logpz


def nll(flow, x):
    z, delta = flow(x, torch.zeros(x.shape[0]))
    log_base = -0.5 * (z ** 2).sum(1) - math.log(2 * math.pi)
    return -(log_base - delta).mean()


data = torch.randn(128, 2) * torch.tensor([2.0, 0.5]) + torch.tensor([1.0, -1.0])
flow = CNF(ODEFunc())
opt = torch.optim.Adam(flow.parameters(), lr=1e-2)
T_before = flow.sqrt_end_time.item()
for it in range(5):
    loss = nll(flow, data)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert flow.sqrt_end_time.grad is None
assert flow.sqrt_end_time.item() == T_before
assert flow.odefunc.net[0].weight.grad is not None  # the dynamics still train

fixed = CNF(ODEFunc(), stack_times=True)
nll(fixed, data).backward()
assert fixed.sqrt_end_time.grad is not None and fixed.sqrt_end_time.grad.abs() > 0
print("p04 ok: the learnable end time never receives a gradient")
