"""
expect: GL004 23
dynamic: confirm
source: kinds check 50, kind 4

Online anomaly scorer over a sensor stream with a leaky-integrator memory. Each step the
memory `mem` is updated from the previous one and never detached, and the update helper
backpropagates with retain_graph=True, so every backward walks all earlier steps' graphs
(the graph reachable from the loss grows linearly and old graphs are kept alive).
"""
import torch
import torch.nn as nn

torch.manual_seed(6)
enc = nn.Linear(3, 16)
readout = nn.Linear(16, 1)
opt = torch.optim.SGD(list(enc.parameters()) + list(readout.parameters()), lr=0.01)
stream = torch.randn(40, 1, 3)


def update(optimizer, loss):
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()


def graph_size(t):
    seen, todo = set(), [t.grad_fn]
    while todo:
        fn = todo.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        todo.extend(f for f, _ in fn.next_functions)
    return len(seen)


mem = torch.zeros(1, 16)
sizes = []
for t in range(stream.shape[0]):
    mem = 0.9 * mem + torch.tanh(enc(stream[t]))
    loss = (readout(mem) - stream[t, :, :1]).pow(2).mean()
    sizes.append(graph_size(loss))
    update(opt, loss)
assert sizes[-1] > 10 * sizes[1], sizes[:3] + sizes[-1:]
assert all(b > a for a, b in zip(sizes, sizes[1:]))
print("k07 ok: graph size per step grew", sizes[0], "->", sizes[-1])
