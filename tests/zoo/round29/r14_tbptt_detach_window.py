"""
expect: GL004 55
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/49236

The report: detaching a state that already has children does not cut the
graph for those children, so a truncated-BPTT loop that "detaches" the state
falling out of its window and calls `backward(retain_graph=True)` every step
still reaches all the way back (today's torch even refuses `detach_()` on a
saved state, so code detaches a copy). Here a forecaster keeps a window of
recent hidden states for a multi-step loss and detaches the oldest one while
the carried `h` keeps its history; the asserts show that the graph behind each step's loss keeps
growing (it still reaches the first input step), and the
gradient of the last losses still lands on the very first input.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Forecaster(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.cell = nn.GRUCell(1, d)
        self.out = nn.Linear(d, 1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


def train(series, window=3):
    model = Forecaster()
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    h = torch.zeros(1, 8)
    first_x = series[0:1].clone().requires_grad_(True)
    recent, sizes = [], []
    for t in range(len(series) - 1):
        x = first_x if t == 0 else series[t:t + 1]
        h = model.cell(x.view(1, 1), h)
        recent.append(h)
        if len(recent) > window:
            recent.pop(0).detach()            # "truncate": cuts nothing, h keeps its history
        pred = torch.stack([model.out(s) for s in recent]).mean()
        loss = (pred - series[t + 1]).pow(2)
        loss.backward(retain_graph=True)   # grads accumulate, one step per sequence
        sizes.append(graph_size(loss))
    opt.step()
    return sizes, first_x.grad


series = torch.sin(torch.linspace(0, 6, 30))
sizes, g_first = train(series)
assert sizes[-1] > 3 * sizes[5], sizes            # graph keeps growing every step
assert g_first is not None and g_first.abs().sum() > 0   # last losses still reach step 0
print("ok: graph nodes grew from", sizes[5], "to", sizes[-1])
