"""
expect: GL004 53
dynamic: confirm
source: https://github.com/dynamiqs/dynamiqs/pull/352

A hand-written adjoint-style ODE integrator computes per-step vector-Jacobian
products by calling backward(retain_graph=True) on each step's output. The
state y is carried from one step to the next without being cut, so every
step's graph hangs off all earlier steps: each backward walks the whole
history (the PR: "backpropagating through the entire graph every time step
... graph increasing in size") and the retained graph keeps it alive. The
asserts show the graph reachable from the state grows linearly with steps,
and that parameter grads are inflated versus a variant that starts each step
from a fresh leaf.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class VectorField(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 16), nn.Tanh(), nn.Linear(16, dim))

    def forward(self, y):
        return self.net(y)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(n for n, _ in fn.next_functions)
    return len(seen)


class StepSensitivity:
    def __init__(self, field, dt=0.05):
        self.field, self.dt = field, dt

    def run(self, y0, n_steps, cut_each_step):
        y = y0
        sizes = []
        for _ in range(n_steps):
            y_in = y.detach().requires_grad_(True) if cut_each_step else y
            y = y_in + self.dt * self.field(y_in)
            y.sum().backward(retain_graph=True)
            sizes.append(graph_size(y))
        return sizes


field = VectorField()
y0 = torch.randn(8, 4, requires_grad=True)

sizes_bug = StepSensitivity(field).run(y0, 12, cut_each_step=False)
g_bug = field.net[0].weight.grad.clone()
field.zero_grad()
sizes_ok = StepSensitivity(field).run(y0, 12, cut_each_step=True)
g_ok = field.net[0].weight.grad.clone()

assert sizes_bug[-1] > 5 * sizes_bug[0], sizes_bug   # graph grows with every step
assert len(set(sizes_ok)) == 1                   # fixed variant: constant per step
assert not torch.allclose(g_bug, g_ok)           # old steps re-differentiated each time
print("ok: retained graph grows across integrator steps", sizes_bug[0], sizes_bug[-1])
