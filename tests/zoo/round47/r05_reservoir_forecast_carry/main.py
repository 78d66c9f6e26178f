"""
expect: GL004 main.py:47
dynamic: confirm
source: https://github.com/royJackman/SineCircleMappings/blob/main/ClassificationTest.py

Online one-step-ahead forecasting of a sine series with a sine-circle-map reservoir.
Each step feeds the previous reservoir state back in (`pred, state = model(x, state)`)
and updates the map parameters right away. The returned state still carries the
autograd history of every earlier step, so the second backward would hit freed
buffers; the loop therefore calls `loss.backward(retain_graph=True)` (the model copies
its parameters with `.clone()` so the optimizer's in-place updates do not trip the
version check). Every step then keeps and re-traverses the whole history: the asserts
count the autograd nodes reachable from each new loss and show they grow linearly with
the step index, while detaching the carried state keeps the count constant and still
trains the parameters.
"""
import math

import torch
import torch.nn as nn

from reservoir import SCMNet


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def online_fit(model, series, steps, detach_state=False):
    state = torch.rand(model.alphas.numel())
    crit = nn.MSELoss()
    opti = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    sizes = []
    for step in range(steps):
        x, y = series[step].view(1, 1), series[step + 1].view(1, 1)
        pred, state = model(x, state.detach() if detach_state else state)
        loss = crit(pred, y)
        sizes.append(graph_size(loss))
        opti.zero_grad()
        loss.backward(retain_graph=True)
        opti.step()
    return sizes


torch.manual_seed(0)
torch.set_num_threads(1)
t = torch.linspace(0, 6 * math.pi, 41)
series = torch.sin(t)

carried = SCMNet(1, 1, 12)
sizes = online_fit(carried, series, steps=30)
growth = [b - a for a, b in zip(sizes, sizes[1:])]
assert all(g > 0 for g in growth), growth
assert len(set(growth[2:])) == 1
assert sizes[-1] > 10 * sizes[0]

truncated = SCMNet(1, 1, 12)
start = truncated.alphas.detach().clone()
sizes_fixed = online_fit(truncated, series, steps=30, detach_state=True)
assert len(set(sizes_fixed)) == 1
assert not torch.equal(start, truncated.alphas)
print("carried graph nodes per step:", sizes[0], "->", sizes[-1], "| detached:", sizes_fixed[-1])
