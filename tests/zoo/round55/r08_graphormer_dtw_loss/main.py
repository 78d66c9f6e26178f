"""
expect: GL003 spectrum_loss.py:56
dynamic: confirm
source: https://github.com/rhrjsalpha/Graphormer_UV_VIS_Fluorescence_v2/blob/cf8d5c9bd7d4b9b6d95400bcb2814ab63d89e85b/GP/Custom_Loss/custom_loss.py

A small Graphormer-style model (attention over atoms with a shortest-path-distance bias) predicts a
UV-Vis absorption spectrum for each molecule and is trained with a FastDTW distance to the measured
spectrum (spectrum_loss.py). The DTW recursion itself is built from torch ops on the predicted spectrum,
so the distance it returns does carry the model's history; fastdtw_loss then "safely" turns it into a
loss with `distance.clone().detach().requires_grad_(True)`. The result is a fresh leaf: backward() runs
without complaint, but no parameter of the model receives a gradient and the optimizer never moves it.
(The coarse levels of the recursion rebuild a half-resolution series with torch.tensor, but those only
choose the search window; the returned distance is always computed on the full-resolution prediction.)
The asserts show every model parameter with .grad None and unchanged after training on the shipped loss,
and non-zero gradients and a falling DTW distance when the same distance is returned without the switch.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from spectrum_loss import fastdtw, fastdtw_loss

warnings.filterwarnings("ignore", message="Converting a tensor with requires_grad=True to a scalar")
torch.manual_seed(0)
torch.set_num_threads(1)

N_BINS = 12


def shortest_paths(adj):
    n = adj.shape[0]
    d = torch.full((n, n), float(n))
    d[adj > 0] = 1.0
    d.fill_diagonal_(0.0)
    for k in range(n):
        d = torch.minimum(d, d[:, k:k + 1] + d[k:k + 1, :])
    return d.long().clamp(max=4)


class GraphormerLite(nn.Module):
    def __init__(self, atom_types=6, dim=16, max_dist=5):
        super().__init__()
        self.atom_emb = nn.Embedding(atom_types, dim)
        self.spatial_bias = nn.Embedding(max_dist, 1)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.ffn = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.spectrum_head = nn.Linear(dim, N_BINS)

    def forward(self, atoms, spd):
        h = self.atom_emb(atoms)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        scores = q @ k.T / q.shape[-1] ** 0.5 + self.spatial_bias(spd).squeeze(-1)
        h = h + torch.softmax(scores, dim=-1) @ v
        h = h + self.ffn(h)
        return F.softplus(self.spectrum_head(h.mean(0)))


def molecule(n_atoms):
    atoms = torch.randint(0, 6, (n_atoms,))
    adj = torch.zeros(n_atoms, n_atoms)
    for i in range(1, n_atoms):
        j = torch.randint(0, i, (1,)).item()
        adj[i, j] = adj[j, i] = 1.0
    peak = torch.randint(2, N_BINS - 2, (1,)).float()
    spectrum = torch.exp(-0.5 * (torch.arange(N_BINS) - peak) ** 2)
    return atoms, shortest_paths(adj), spectrum


data = [molecule(n) for n in (5, 6, 7, 5)]


def train(loss_fn, steps=6):
    torch.manual_seed(3)
    model = GraphormerLite()
    opt = torch.optim.Adam(model.parameters(), lr=2e-2)
    start = [p.detach().clone() for p in model.parameters()]
    history = []
    for _ in range(steps):
        opt.zero_grad()
        loss = torch.stack([loss_fn(model(a, s), y) for a, s, y in data]).mean()
        loss.backward()
        grads = [p.grad for p in model.parameters()]
        opt.step()
        history.append(loss.item())
    moved = max((p.detach() - s).abs().max().item() for p, s in zip(model.parameters(), start))
    return grads, moved, history


grads, moved, history = train(fastdtw_loss)
assert all(g is None for g in grads), "the switched leaf cannot reach the model"
assert moved == 0.0

grads, moved, attached = train(lambda pred, target: fastdtw(pred, target, radius=1)[0])
assert all(g is not None for g in grads) and sum(g.abs().sum() for g in grads) > 0
assert moved > 0 and attached[-1] < attached[0]
print(f"shipped loss: {history[0]:.3f} -> {history[-1]:.3f}; attached distance: {attached[0]:.3f} -> {attached[-1]:.3f}")
