"""
expect: GL004 60
dynamic: confirm
source: https://github.com/alison-carrera/onn/pull/4

alison-carrera/onn (Online Deep Learning / Hedge Backpropagation) PR #4: on a long data stream the
memory kept growing because the hedge weights alpha were updated from the per-layer losses without
torch.no_grad() (the PR wraps that update), so self.alpha carried the autograd history of every
previous sample while update_weights() called backward(retain_graph=True) once per layer and
updated weights through .data. This program rebuilds a streaming ONN for tabular data in which the
per-layer losses are weighted by alpha before backward(retain_graph=True) (the repo multiplies the
gradients by alpha by hand) and the alpha update keeps history, so every backward also walks all
earlier samples' graphs. It counts the autograd nodes reachable from the loss at each partial_fit()
and asserts the graph grows with every streamed batch, while updating alpha without history keeps
the graph size constant and the ensemble still learns.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class ONN(nn.Module):
    def __init__(self, features, layers=3, hidden=16, classes=2, b=0.99, s=0.2, lr=0.5, keep_history=True):
        super().__init__()
        self.hidden = nn.ModuleList([nn.Linear(features if i == 0 else hidden, hidden) for i in range(layers)])
        self.heads = nn.ModuleList([nn.Linear(hidden, classes) for _ in range(layers)])
        self.b, self.s, self.L = torch.tensor(b), s, layers
        self.alpha = torch.full((layers,), 1.0 / layers)
        self.keep_history = keep_history
        self.lr = lr

    def forward(self, x):
        outs, h = [], x
        for layer, head in zip(self.hidden, self.heads):
            h = F.relu(layer(h))
            outs.append(head(h))
        return torch.stack(outs)

    def partial_fit(self, X, Y):
        x, y = torch.from_numpy(X).float(), torch.from_numpy(Y).long()
        preds = self.forward(x)
        losses = [F.cross_entropy(p, y) for p in preds]
        self.zero_grad(set_to_none=True)
        sizes = []
        for i in range(self.L):
            weighted = self.alpha[i] * losses[i]
            sizes.append(graph_size(weighted))
            weighted.backward(retain_graph=True)
        for p in self.parameters():          # manual hedge-backprop step, as in the repo
            p.data -= self.lr * p.grad.data
        alpha = self.alpha if self.keep_history else self.alpha.detach()
        new_alpha = torch.stack([alpha[i] * torch.pow(self.b, losses[i] if self.keep_history else losses[i].detach())
                                 for i in range(self.L)])
        new_alpha = torch.clamp(new_alpha, min=self.s / self.L)
        self.alpha = new_alpha / new_alpha.sum()
        with torch.no_grad():
            ensemble = (self.alpha.view(-1, 1, 1) * preds.softmax(-1)).sum(0)
        return max(sizes), (ensemble.argmax(-1) == y).float().mean().item()


def stream(n_batches=20, batch=16, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=6)
    for _ in range(n_batches):
        X = rng.normal(size=(batch, 6))
        yield X, (X @ w > 0).astype(np.int64)


def run(keep_history):
    torch.manual_seed(0)
    onn = ONN(features=6, keep_history=keep_history)
    sizes, accs = [], []
    for X, Y in stream():
        size, acc = onn.partial_fit(X, Y)
        sizes.append(size)
        accs.append(acc)
    return sizes, accs


sizes, _ = run(keep_history=True)
assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes[:6]
assert sizes[-1] > 5 * sizes[0], (sizes[0], sizes[-1])

sizes_fix, accs_fix = run(keep_history=False)
assert len(set(sizes_fix)) == 1, sizes_fix[:6]
assert np.mean(accs_fix[-5:]) > np.mean(accs_fix[:5]), (accs_fix[:5], accs_fix[-5:])
print("p09 ok: alpha with history + retain_graph=True grows the backward graph every batch")
