"""
expect: GL004 65
dynamic: confirm
source: https://github.com/whatshow/NN-TimeLTSM/blob/HEAD/README.md

A Time-LSTM forecasting repo explains that it calls `loss.backward(retain_graph=True)`, the usual
answer to "Trying to backward through the graph a second time" when a recurrent state is kept
between training windows. Here a stateful forecaster keeps (h, c) across windows and never
detaches it, so each window's graph hangs off all previous windows: backward walks further back
every window and memory grows over the epoch (and early windows' gradients are counted again
and again). The asserts count the autograd nodes reachable from each loss
(grows linearly with the window index), show that the first window's input still receives
gradient from the last window's loss, and that the detached variant keeps a constant graph.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        stack.extend(nf for nf, _ in f.next_functions)
    return len(seen)


class TimeGateForecaster(nn.Module):
    def __init__(self, d_in=3, d_h=12, detach_state=False):
        super().__init__()
        self.cell = nn.LSTMCell(d_in + 1, d_h)
        self.time_gate = nn.Linear(1, d_h)
        self.head = nn.Linear(d_h, 1)
        self.detach_state = detach_state
        self.state = None

    def forward(self, x, dt):
        if self.state is None:
            self.state = (x.new_zeros(x.size(0), 12), x.new_zeros(x.size(0), 12))
        h, c = self.state
        if self.detach_state:
            h, c = h.detach(), c.detach()
        outs = []
        for t in range(x.size(1)):
            h, c = self.cell(torch.cat([x[:, t], dt[:, t]], 1), (h, c))
            h = h * torch.sigmoid(self.time_gate(dt[:, t]))
            outs.append(self.head(h))
        self.state = (h, c)
        return torch.stack(outs, 1)


def fit_epoch(model, windows):
    # gradients are accumulated over the epoch's windows, one step at the end
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    opt.zero_grad()
    model.state = None
    sizes, losses = [], []
    for x, dt, y in windows:
        loss = ((model(x, dt) - y) ** 2).mean()
        loss.backward(retain_graph=True)
        sizes.append(graph_size(loss))
        losses.append(loss)
    first_x = windows[0][0]
    reach = None
    if first_x.requires_grad:
        reach = torch.autograd.grad(losses[-1], first_x, retain_graph=True, allow_unused=True)[0]
    opt.step()
    return sizes, reach


def make_windows(n=6):
    g = torch.Generator().manual_seed(1)
    out = []
    for _ in range(n):
        x = torch.randn(4, 5, 3, generator=g)
        out.append((x, torch.rand(4, 5, 1, generator=g), x.sum(-1, keepdim=True)))
    return out


windows = make_windows()
windows[0][0].requires_grad_(True)

torch.manual_seed(0)
buggy = TimeGateForecaster()
sizes, g0 = fit_epoch(buggy, [(w[0], w[1], w[2]) for w in windows])
assert all(b > a for a, b in zip(sizes, sizes[1:]))
assert sizes[-1] > 4 * sizes[0]
# the last window's loss still reaches the first window's input
assert g0 is not None and g0.abs().sum() > 0

torch.manual_seed(0)
fixed = TimeGateForecaster(detach_state=True)
sizes_f, _ = fit_epoch(fixed, [(w[0].detach(), w[1], w[2]) for w in windows])
assert len(set(sizes_f[1:])) == 1
print("ok: graph sizes", sizes, "vs detached", sizes_f)
