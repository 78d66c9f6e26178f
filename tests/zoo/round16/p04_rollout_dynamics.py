"""
expect: GL004 46
dynamic: confirm
source: https://discuss.pytorch.org/t/backwards-through-a-graph-iteratively-and-efficiently/176817

The poster rolled out a recurrence y[i] = y[i-1]**2 + ... and wanted the gradient at every step,
so they called y[i].backward(retain_graph=True) inside the loop; it gave the right numbers but was
about 30x slower than one backward at the end. This program rebuilds it as a small rollout class
whose state is carried from step to step while each step backpropagates with retain_graph=True.
The asserts count the autograd nodes reachable from the state and the nodes each backward has to
walk: both grow linearly with the step index, so every step re-traverses (and keeps alive) the
whole history, while the detached-state variant stays constant.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class DynamicsRollout(nn.Module):
    def __init__(self, dim=4):
        super().__init__()
        self.A = nn.Parameter(torch.randn(dim, dim) * 0.3)
        self.b = nn.Parameter(torch.zeros(dim))

    def step(self, state):
        return torch.tanh(state @ self.A + self.b) + 0.5 * state

    def run_with_step_grads(self, x0, steps):
        sizes, grads = [], []
        state = x0
        for _ in range(steps):
            state = self.step(state)
            self.zero_grad()
            state.pow(2).sum().backward(retain_graph=True)
            grads.append(self.A.grad.norm().item())
            sizes.append(graph_size(state))
        return sizes, grads

    def run_windowed(self, x0, steps):
        sizes = []
        state = x0
        for _ in range(steps):
            state = self.step(state.detach())
            self.zero_grad()
            state.pow(2).sum().backward()
            sizes.append(graph_size(state))
        return sizes


model = DynamicsRollout()
x0 = torch.randn(2, 4)
sizes, grads = model.run_with_step_grads(x0, 12)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
assert sizes[-1] >= 8 * sizes[0], sizes

trunc = model.run_windowed(x0, 12)
assert len(set(trunc)) == 1, trunc
print("ok: graph walked by each retained backward grows", sizes[0], "->", sizes[-1])
