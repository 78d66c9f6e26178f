"""
expect: none
dynamic: dismiss
source: none, invented

Truncated backpropagation through time for an hourly electricity-load forecaster built on a `GRUCell`.
The loop walks one long series step by step, accumulates the one-step-ahead loss, and every `k` steps calls
`loss.backward(retain_graph=True)`, steps the optimizer and restarts the carried hidden state with the
helper `fresh(h)`, which returns `h.detach().requires_grad_()`. Because the helper really returns a copy
cut from the history, each backward only covers the last `k` steps; `retain_graph=True` is unnecessary but
harmless. The asserts show the loop runs through many segments without the in-place modification error
that a still-connected state would raise after `optimizer.step()`, the autograd graph does not grow
from segment to segment, and the forecasting loss falls.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def fresh(v):
    return v.detach().requires_grad_()


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(f for f, _ in fn.next_functions)
    return len(seen)


class LoadForecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.cell = nn.GRUCell(3, hidden)
        self.head = nn.Linear(hidden, 1)

    def step(self, x, h):
        h = self.cell(x, h)
        return self.head(h), h


def hourly_load(hours=24 * 30):
    t = torch.arange(hours, dtype=torch.float32)
    daily = torch.sin(2 * math.pi * t / 24)
    weekly = 0.3 * torch.sin(2 * math.pi * t / (24 * 7))
    load = daily + weekly + 0.05 * torch.randn(hours)
    feats = torch.stack([load, torch.sin(2 * math.pi * t / 24), torch.cos(2 * math.pi * t / 24)], dim=1)
    return feats, load


def train(epochs=3, k=24):
    feats, load = hourly_load()
    model = LoadForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=5e-3)
    epoch_losses, sizes = [], []
    for epoch in range(epochs):
        h = torch.zeros(1, 32)
        loss, total = 0.0, 0.0
        for t in range(len(load) - 1):
            pred, h = model.step(feats[t:t + 1], h)
            loss = loss + F.mse_loss(pred.squeeze(), load[t + 1])
            if (t + 1) % k == 0:
                sizes.append(graph_size(loss))
                opt.zero_grad()
                loss.backward(retain_graph=True)
                opt.step()
                total += loss.item()
                loss = 0.0
                h = fresh(h)
        epoch_losses.append(total)
    return epoch_losses, sizes


if __name__ == "__main__":
    epoch_losses, sizes = train()
    assert max(sizes) <= min(sizes) + 1, sorted(set(sizes))
    assert epoch_losses[-1] < 0.5 * epoch_losses[0], epoch_losses
    print("k13: truncated BPTT trains with a constant graph per segment")
