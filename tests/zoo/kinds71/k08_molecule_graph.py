"""
expect: none
dynamic: dismiss
source: none, invented

A small graph network over molecules picks one of several bond types per edge with a hard one-hot choice but
keeps gradients through a straight-through estimator written in one expression:
y = soft + (hard - soft).detach(). The forward value is the hard one-hot, while the gradient flows through
`soft` (the softmax), so the edge scorer and the node encoder both train. Not a bug.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

n_nodes, n_types = 10, 4
edges = torch.tensor([[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8], [8, 9], [9, 0]])
atom_feats = torch.randn(n_nodes, 8)
target_energy = torch.tensor(1.5)

encoder = nn.Linear(8, 16)
edge_scorer = nn.Linear(32, n_types)
bond_energy = nn.Parameter(torch.randn(n_types))
params = list(encoder.parameters()) + list(edge_scorer.parameters()) + [bond_energy]
opt = torch.optim.Adam(params, lr=0.05)
before = [p.detach().clone() for p in params]

losses = []
for step in range(60):
    h = torch.tanh(encoder(atom_feats))
    logits = edge_scorer(torch.cat([h[edges[:, 0]], h[edges[:, 1]]], dim=-1))
    soft = F.softmax(logits, dim=-1)
    hard = F.one_hot(soft.argmax(-1), n_types).float()
    y = soft + (hard - soft).detach()
    energy = (y * bond_energy).sum() / len(edges)
    loss = (energy - target_energy) ** 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())

assert torch.allclose(y, hard)  # forward value is the hard choice
for p0, p in zip(before, params):
    assert p.grad is not None and p.grad.abs().sum() > 0, "every parameter gets a gradient"
    assert not torch.equal(p0, p), "every parameter moved"
assert losses[-1] < 0.1 * losses[0], (losses[0], losses[-1])
print("k08 ok: straight-through estimator trains everything")
