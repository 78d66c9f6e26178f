"""
expect: GL002 40
dynamic: confirm
source: https://github.com/rtqichen/torchdiffeq/issues/189

The torchdiffeq question asks whether gradients pass through the ODE solve
when a network output parameterises the dynamics; the poster wraps the solver
result in a fresh tensor before the loss. Here a tiny Euler solver integrates
a learned drift, and the trajectory helper rebuilds the solution from Python
numbers (sol.tolist()) into a new tensor with requires_grad=True so backward
still runs. The loss then reaches only that new leaf: the drift network's
gradients stay None and its weights never move, while the same loss on the
unrebuilt solution trains them.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Drift(nn.Module):
    def __init__(self, n=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n, 16), nn.Tanh(), nn.Linear(16, n))

    def forward(self, t, y):
        return self.net(y)


def euler(func, y0, ts):
    ys = [y0]
    for t0, t1 in zip(ts[:-1], ts[1:]):
        ys.append(ys[-1] + (t1 - t0) * func(t0, ys[-1]))
    return torch.stack(ys)


def trajectory(func, y0, ts):
    sol = euler(func, y0, ts)
    return torch.tensor(sol.tolist(), requires_grad=True)


func = Drift()
opt = torch.optim.SGD(func.parameters(), lr=0.1)
y0 = torch.randn(8, 3)
ts = torch.linspace(0.0, 1.0, 11)
target = torch.zeros(11, 8, 3)

before = [p.detach().clone() for p in func.parameters()]
for _ in range(5):
    opt.zero_grad()
    pred = trajectory(func, y0, ts)
    loss = ((pred - target) ** 2).mean()
    loss.backward()
    opt.step()

assert all(p.grad is None for p in func.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, func.parameters()))

# fixed: keep the solver output in the graph
loss = ((euler(func, y0, ts) - target) ** 2).mean()
loss.backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in func.parameters())
print("ok: rebuilt trajectory left the drift network untrained")
