"""
expect: none
dynamic: dismiss
source: https://github.com/imperial-qore/TranAD/blob/7ffb98d0c18189cc3d9ab732b4cb0278200a0af0/main.py

A two-phase transformer anomaly detector for multivariate time series (TranAD-style): phase
one reconstructs the last element of each window, the squared phase-one error becomes a focus
score, and phase two reconstructs again conditioned on it; the loss mixes both phases with an
epoch-dependent weight. The trainer calls loss.backward(retain_graph=True) on every batch.
That keeps the batch's graph alive a little longer than needed, but nothing of one batch is
carried into the next (no hidden state, no running tensor), so each graph is released when the
loop moves on. The asserts show the number of autograd nodes per batch stays constant, the
previous batch's loss tensor is freed after the next iteration, and the loss falls.
"""
import gc
import math
import warnings
import weakref

import torch
import torch.nn.functional as F
from torch import nn


def track(store):
    def pack(t):
        alias = t.detach()
        store.append(weakref.ref(alias))
        return alias
    return pack


def graph_size(tensor):
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(parent for parent, _ in node.next_functions)
    return len(seen)


class TwoPhaseDetector(nn.Module):
    def __init__(self, feats, window, d_model=16):
        super().__init__()
        self.feats = feats
        self.inp = nn.Linear(2 * feats, d_model)
        self.pos = nn.Parameter(torch.randn(window, 1, d_model) * 0.02)
        layer = nn.TransformerEncoderLayer(d_model, nhead=2, dim_feedforward=32, dropout=0.0)
        self.encoder = nn.TransformerEncoder(layer, 1)
        self.dec1 = nn.Sequential(nn.Linear(d_model, feats), nn.Sigmoid())
        self.dec2 = nn.Sequential(nn.Linear(d_model, feats), nn.Sigmoid())

    def encode(self, src, focus):
        h = self.inp(torch.cat([src, focus], dim=2)) * math.sqrt(self.feats) + self.pos
        return self.encoder(h)[-1:]

    def forward(self, src):
        x1 = self.dec1(self.encode(src, torch.zeros_like(src)))
        focus = (x1 - src) ** 2
        x2 = self.dec2(self.encode(src, focus))
        return x1, x2


warnings.simplefilter("ignore", UserWarning)
torch.manual_seed(0)
torch.set_num_threads(1)
feats, window = 3, 8
series = torch.sigmoid(torch.sin(torch.linspace(0, 20, 400)).unsqueeze(1) * torch.tensor([1.0, 0.5, -0.7]))
windows = series.unfold(0, window, 1).permute(0, 2, 1)  # (N, window, feats)
model = TwoPhaseDetector(feats, window)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

sizes, epoch_losses, leftovers = [], [], []
previous_saved = None
for epoch in range(1, 6):
    total = 0.0
    for start in range(0, len(windows), 64):
        d = windows[start:start + 64]
        src = d.permute(1, 0, 2)
        elem = src[-1:, :, :]
        saved = []
        with torch.autograd.graph.saved_tensors_hooks(track(saved), lambda t: t):
            x1, x2 = model(src)
            loss = (1 / epoch) * F.mse_loss(x1, elem) + (1 - 1 / epoch) * F.mse_loss(x2, elem)
        sizes.append(graph_size(loss))
        optimizer.zero_grad()
        loss.backward(retain_graph=True)
        optimizer.step()
        total += loss.item()
        if previous_saved is not None:
            gc.collect()
            leftovers.append(sum(r() is not None for r in previous_saved))
        previous_saved = saved
    epoch_losses.append(total)

assert len(set(sizes)) == 1, sizes
assert len(leftovers) > 10 and max(leftovers) == 0, leftovers
assert epoch_losses[-1] < epoch_losses[0]
print("nodes per batch", sizes[0], "| saved activations left from the previous batch:", max(leftovers), "| loss", round(epoch_losses[0], 4), "->", round(epoch_losses[-1], 4))
