import torch
import torch.nn as nn
import torch.nn.functional as F


class MessagePassingLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.self_lin = nn.Linear(dim, dim)
        self.nbr_lin = nn.Linear(dim, dim, bias=False)

    def forward(self, h, adj):
        deg = adj.sum(-1, keepdim=True).clamp(min=1)
        return F.relu(self.self_lin(h) + self.nbr_lin(adj @ h / deg))


class MolPropertyGNN(nn.Module):
    def __init__(self, atom_feats, dim=32, layers=2):
        super().__init__()
        self.atom_in = nn.Linear(atom_feats, dim)
        self.layers = nn.ModuleList(MessagePassingLayer(dim) for _ in range(layers))
        self.head = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, 1))

    def _pool(self, x, adj, mask):
        h = F.relu(self.atom_in(x))
        for layer in self.layers:
            h = layer(h, adj)
        return (h * mask[..., None]).sum(1)

    def graph_embedding(self, x, adj, mask):
        pooled = self._pool(x, adj, mask)
        return torch.tensor(pooled.detach(), requires_grad=True)

    def forward(self, x, adj, mask):
        return self.head(self._pool(x, adj, mask)).squeeze(-1)
