"""source: https://discuss.pytorch.org/t/implementing-truncated-backpropagation-through-time/15500

Truncated BPTT over one long stream: a loss is backpropagated at every time step
with retain_graph=True (later steps of the same window go back through the earlier
ones), the optimizer steps at the end of each window of k steps, and the hidden
state is detached there.  The graph grows only inside a window and is cut every
k steps, so every window sees the same bounded sizes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is not None and fn not in seen:
            seen.add(fn)
            todo.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


torch.manual_seed(0)
cell, readout = nn.GRUCell(3, 16), nn.Linear(16, 1)
params = list(cell.parameters()) + list(readout.parameters())
optimizer = torch.optim.Adam(params, lr=1e-3)
k, stream = 4, torch.randn(20, 8, 3)
targets = stream.sum(dim=2, keepdim=True).cumsum(0)
h, sizes = torch.zeros(8, 16), []
optimizer.zero_grad()
for t in range(stream.size(0)):
    h = cell(stream[t], h)
    loss = F.mse_loss(readout(h), targets[t])
    loss.backward(retain_graph=True)
    sizes.append(graph_size(loss))
    if (t + 1) % k == 0:
        optimizer.step()
        optimizer.zero_grad()
        h = h.detach()  # truncate: the next window starts a new graph

windows = [tuple(sizes[i:i + k]) for i in range(0, len(sizes), k)]
assert len(set(windows)) == 1 and max(sizes) == windows[0][-1], windows
print("bounded per window:", windows[0])
