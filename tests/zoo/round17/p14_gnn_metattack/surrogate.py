"""Dense GCN surrogate and its inner training loop used by a gradient-based structure attack."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def normalize_adj(adj):
    adj = adj + torch.eye(adj.shape[0])
    d_inv_sqrt = adj.sum(1).pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class GCN(nn.Module):
    def __init__(self, n_feat, n_hid, n_class):
        super().__init__()
        self.w1 = nn.Linear(n_feat, n_hid)
        self.w2 = nn.Linear(n_hid, n_class)

    def forward(self, x, adj_norm):
        h = F.relu(adj_norm @ self.w1(x))
        return F.log_softmax(adj_norm @ self.w2(h), dim=1)


class StructurePerturbation(nn.Module):
    """Symmetric edge flips parameterised by a continuous change matrix (Metattack style)."""

    def __init__(self, adj):
        super().__init__()
        self.register_buffer("adj", adj)
        self.adj_changes = nn.Parameter(torch.zeros_like(adj))

    def modified_adj(self):
        sym = (self.adj_changes + self.adj_changes.t()) / 2
        return (self.adj + sym * (1 - 2 * self.adj)).clamp(0, 1)


def train_surrogate(model, features, adj_norm, labels, idx_train, steps=60, lr=0.05):
    """Inner training; adj_norm (a function of adj_changes) is shared by every step."""
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    sizes, losses = [], []
    for _ in range(steps):
        out = model(features, adj_norm)
        loss = F.nll_loss(out[idx_train], labels[idx_train])
        sizes.append(graph_size(loss))
        opt.zero_grad()
        loss.backward(retain_graph=True)
        opt.step()
        losses.append(loss.item())
    return sizes, losses
