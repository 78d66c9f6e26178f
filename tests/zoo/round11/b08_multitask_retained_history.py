"""
expect: GL004 63
dynamic: confirm
source: https://github.com/ItzikMalkiel/MTAdam/issues/2

The report: with MTAdam-style multi-task balancing on a large dataset, CUDA memory grew every
iteration until it crashed; the reporter traced it to loss.backward(retain_graph=True) never clearing
the graph. This program rebuilds a balancing trainer that backpropagates each task loss separately
with retain_graph=True (the last one too) and keeps the summed total, graph and all, in a history
list (this program's stand-in for what kept old graphs referenced). A saved_tensors_hooks counter shows the retained saved
activations of every past step stay alive, so their number grows each step; when the history keeps
detached numbers the retained graphs die with the step and the count stays flat.
"""
import gc
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F


class _Packed:
    def __init__(self, t):
        self.t = t.detach()


_live = weakref.WeakSet()


def _pack(t):
    p = _Packed(t)
    _live.add(p)
    return p


def _unpack(p):
    return p.t


class MultiTaskNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(10, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh())
        self.heads = nn.ModuleList([nn.Linear(32, 1) for _ in range(3)])

    def forward(self, x):
        h = self.shared(x)
        return [head(h) for head in self.heads]


class BalancedTrainer:
    def __init__(self, model, keep_graph_in_history):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)
        self.history = []
        self.keep_graph_in_history = keep_graph_in_history

    def step(self, x, ys):
        self.opt.zero_grad()
        with torch.autograd.graph.saved_tensors_hooks(_pack, _unpack):
            losses = [F.mse_loss(out, y) for out, y in zip(self.model(x), ys)]
        for loss in losses:
            loss.backward(retain_graph=True)
        self.opt.step()
        total = sum(losses)
        self.history.append(total if self.keep_graph_in_history else total.detach())
        del losses, total
        gc.collect()
        return len(_live)


torch.manual_seed(0)
x = torch.randn(64, 10)
ys = [torch.randn(64, 1) for _ in range(3)]

trainer = BalancedTrainer(MultiTaskNet(), keep_graph_in_history=True)
live = [trainer.step(x, ys) for _ in range(6)]
assert all(b > a for a, b in zip(live, live[1:])), live

trainer.history.clear()
gc.collect()
assert len(_live) == 0
torch.manual_seed(0)
fixed_trainer = BalancedTrainer(MultiTaskNet(), keep_graph_in_history=False)
fixed = [fixed_trainer.step(x, ys) for _ in range(6)]
assert len(set(fixed)) == 1 and live[-1] > 3 * fixed[-1], (live, fixed)
print("live saved tensors per step, retain_graph on every task:", live)
print("live saved tensors per step, history kept as numbers:", fixed)
