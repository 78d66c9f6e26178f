"""
expect: GL001 48
dynamic: confirm
source: https://github.com/rtqichen/torchdiffeq/issues/79

ODE-RNN for irregular time series: between observations the hidden state is
evolved by a learned ODE (Euler steps of an MLP), then a GRUCell absorbs the new
observation. The author fed `hx.detach()` into the GRU cell, so the evolved state
is cut off and the ODE function's parameters never receive a gradient; only the
GRU and the readout learn. The asserts show the ODE net's grads are None with the
detach and non-zero once the detach is removed.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class ODEFunc(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(h, 32), nn.Tanh(), nn.Linear(32, h))

    def forward(self, t, h):
        return self.net(h)


def euler(func, h, dt, steps=4):
    for _ in range(steps):
        h = h + (dt / steps) * func(0.0, h)
    return h


class ODERNN(nn.Module):
    def __init__(self, d=3, h=16, detach_state=True):
        super().__init__()
        self.func = ODEFunc(h)
        self.cell = nn.GRUCell(d, h)
        self.out = nn.Linear(h, 1)
        self.h = h
        self.detach_state = detach_state

    def forward(self, xs, dts):
        hx = torch.zeros(xs.size(1), self.h)
        for x, dt in zip(xs, dts):
            hx = euler(self.func, hx, dt)
            hx = self.cell(x, hx.detach() if self.detach_state else hx)
        return self.out(hx)


xs = torch.randn(6, 8, 3)
dts = [0.3, 0.1, 0.5, 0.2, 0.4, 0.3]
y = torch.randn(8, 1)

model = ODERNN(detach_state=True)
loss = ((model(xs, dts) - y) ** 2).mean()
loss.backward()
assert all(p.grad is None for p in model.func.parameters())
assert model.cell.weight_ih.grad is not None

fixed = ODERNN(detach_state=False)
fixed.load_state_dict(model.state_dict())
((fixed(xs, dts) - y) ** 2).mean().backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.func.parameters())
print("ok")
