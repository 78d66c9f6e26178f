"""
expect: GL004 53
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/5901

A user training an LSTM forecaster on one long market series fed one tick at a time,
passed the hidden state from tick to tick to "keep all time relationships", and called
loss.backward(retain_graph=True) on every tick because plain backward() complained;
the epoch became almost unusably slow. The carried (h, c) chains every tick's graph to
all earlier ones, so each backward walks back to tick 0. (The report also stepped the
optimizer every tick; current PyTorch rejects that against the stale graph, so this
copy accumulates and steps once per pass.) The asserts show the graph reached by each
loss grows linearly and reaches tick 0, while detaching the state keeps it constant.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
FEATS, HID, TICKS = 3, 8, 30


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(FEATS, HID, num_layers=2)
        self.out = nn.Linear(HID, 1)

    def forward(self, tick, hidden):
        y, hidden = self.lstm(tick, hidden)
        return self.out(y[-1]), hidden


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


def train_pass(model, X, y, optimizer, detach_state=False, probe=None):
    criterion = nn.MSELoss()
    hidden, sizes = None, []
    optimizer.zero_grad()
    for i in range(len(X)):
        single_tick = X[i].view(1, 1, -1)
        y_pred, hidden = model(single_tick, hidden)
        loss = criterion(y_pred, y[i].view(1, 1))
        loss.backward(retain_graph=True)
        sizes.append(graph_size(loss))
        if detach_state:
            hidden = tuple(h.detach() for h in hidden)
    if probe is not None:
        probe(loss)
    optimizer.step()
    return sizes, loss


series = torch.cumsum(torch.randn(TICKS + 1, FEATS) * 0.1, 0)
X, y = series[:-1], series[1:, 0]
X_leaf = X.clone().requires_grad_(True)

model = Forecaster()
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
reach = []
sizes, _ = train_pass(model, X_leaf, y, opt,
                      probe=lambda l: reach.append(torch.autograd.grad(l, X_leaf, retain_graph=True)[0]))
assert sizes[-1] > 10 * sizes[0], sizes[:3] + sizes[-3:]
assert all(b > a for a, b in zip(sizes, sizes[1:]))
assert reach[0][0].abs().sum() > 0, "last tick's loss still reaches tick 0"

fixed = Forecaster()
sizes_fixed, _ = train_pass(fixed, X, y, torch.optim.SGD(fixed.parameters(), lr=1e-3), detach_state=True)
assert len(set(sizes_fixed[1:])) == 1
print("ok: graph per tick grows", sizes[0], "->", sizes[-1], "; detached state stays", sizes_fixed[-1])
