"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 4 (written for this check)

Node classification with a residual GCN (layers.py). In its enumerate loop over the conv stack, `h += skip` edits
in place the output of an add on an adjacency matmul, which no backward saved, and `h.detach()` only feeds a list
of per-layer norms for logging. The asserts show backward never raises, every parameter gets a nonzero gradient,
and the logged norms are plain tensors with no graph attached.
"""
import torch
import torch.nn.functional as F

from layers import ResidualGCN


def normalized_adjacency(edge_index, n):
    adj = torch.zeros(n, n)
    adj[edge_index[0], edge_index[1]] = 1.0
    adj = ((adj + adj.t()) > 0).float() + torch.eye(n)
    d_inv_sqrt = adj.sum(1).pow(-0.5)
    return d_inv_sqrt.unsqueeze(1) * adj * d_inv_sqrt.unsqueeze(0)


torch.manual_seed(10)
N_NODES, FEATS, CLASSES = 40, 12, 4
edges = torch.randint(0, N_NODES, (2, 120))
adj = normalized_adjacency(edges, N_NODES)
x = torch.randn(N_NODES, FEATS)
labels = torch.randint(0, CLASSES, (N_NODES,))
train_mask = torch.rand(N_NODES) < 0.5

model = ResidualGCN(FEATS, 32, CLASSES)
opt = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
history = []
for epoch in range(5):
    logits = model(x, adj)
    loss = F.cross_entropy(logits[train_mask], labels[train_mask])
    opt.zero_grad()
    loss.backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
    history.append([n.item() for n in model.layer_norms])

assert all(not n.requires_grad for n in model.layer_norms)
assert len(history) == 5 and len(history[0]) == 3
print("ok: residual += and logging detach in the layer loop are harmless")
