"""
expect: none
dynamic: dismiss
source: https://github.com/rtqichen/torchdiffeq/issues/154

Neural ODE whose vector field is the gradient of a learned energy (a Hamiltonian
network). The report asked how to differentiate inside the ODE function; the
maintainer's advice was to wrap it in torch.enable_grad() and use
`x = x.clone().requires_grad_(True)`. The clone keeps the state's history, so
the trick does not cut anything: the learned initial state and the energy net
both get gradients from the trajectory loss. The asserts check that, that the
fit improves, and that the gradient of the initial state matches a finite
difference.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
torch.set_default_dtype(torch.float64)


class HamiltonianField(nn.Module):
    def __init__(self):
        super().__init__()
        self.energy = nn.Sequential(nn.Linear(2, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, t, x):
        with torch.enable_grad():
            x = x.clone().requires_grad_(True)
            h = self.energy(x).sum()
            dh = torch.autograd.grad(h, x, create_graph=True)[0]
        dq, dp = dh[:, 1:2], -dh[:, 0:1]
        return torch.cat([dq, dp], -1)


def rk4(func, y0, ts):
    ys, y = [y0], y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        h = t1 - t0
        k1 = func(t0, y)
        k2 = func(t0 + h / 2, y + h / 2 * k1)
        k3 = func(t0 + h / 2, y + h / 2 * k2)
        k4 = func(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


ts = torch.linspace(0, 3, 16)
true = torch.stack([torch.cos(ts), -torch.sin(ts)], -1).unsqueeze(1)   # harmonic oscillator

field = HamiltonianField()
initial_state = {k: v.clone() for k, v in field.state_dict().items()}
y0 = nn.Parameter(torch.tensor([[0.8, 0.1]]))
opt = torch.optim.Adam(list(field.parameters()) + [y0], lr=1e-2)


def loss_fn():
    return (rk4(field, y0, ts) - true).pow(2).mean()


losses = []
for it in range(60):
    opt.zero_grad()
    loss = loss_fn()
    loss.backward()
    if it == 0:
        y0_grad = y0.grad.clone()
        net_grad = field.energy[0].weight.grad.abs().sum().item()
    opt.step()
    losses.append(loss.item())

# finite-difference check of d loss / d y0 at the initial point
with torch.no_grad():
    y0.copy_(torch.tensor([[0.8, 0.1]]))
field.load_state_dict(initial_state)
eps = 1e-6
with torch.no_grad():
    y0[0, 0] += eps
    up = loss_fn()
    y0[0, 0] -= 2 * eps
    down = loss_fn()
    y0[0, 0] += eps
fd = ((up - down) / (2 * eps)).item()

print("loss", losses[0], "->", losses[-1], "| dL/dq0 autograd", y0_grad[0, 0].item(), "fd", fd)
assert net_grad > 0 and y0_grad.abs().sum() > 0
assert abs(y0_grad[0, 0].item() - fd) < 1e-6 * max(1.0, abs(fd))
assert losses[-1] < 0.5 * losses[0]
