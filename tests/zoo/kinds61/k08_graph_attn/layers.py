import torch
import torch.nn as nn
import torch.nn.functional as F


def attend_neighbours(h, adj, edge_scorer):
    """Attention-weighted average of each node's neighbours (GAT-like, dense adjacency)."""
    n = h.size(0)
    pairs = torch.cat([h.unsqueeze(1).expand(n, n, -1), h.unsqueeze(0).expand(n, n, -1)], dim=-1)
    with torch.no_grad():
        logits = edge_scorer(pairs).squeeze(-1)
    logits = logits.masked_fill(adj == 0, float("-inf"))
    alpha = torch.softmax(logits, dim=1)
    return alpha @ h


class NodeClassifier(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.lin_in = nn.Linear(in_dim, hidden)
        self.edge_scorer = nn.Sequential(nn.Linear(2 * hidden, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
        self.lin_mid = nn.Linear(2 * hidden, hidden)
        self.lin_out = nn.Linear(hidden, n_classes)

    def forward(self, x, adj):
        h = F.elu(self.lin_in(x))
        agg = attend_neighbours(h, adj, self.edge_scorer)
        h = F.elu(self.lin_mid(torch.cat([h, agg], dim=-1)))
        return self.lin_out(h)


class NodeClassifierPlain(NodeClassifier):
    """Same network, attention computed with grad enabled."""

    def forward(self, x, adj):
        h = F.elu(self.lin_in(x))
        n = h.size(0)
        pairs = torch.cat([h.unsqueeze(1).expand(n, n, -1), h.unsqueeze(0).expand(n, n, -1)], dim=-1)
        logits = self.edge_scorer(pairs).squeeze(-1).masked_fill(adj == 0, float("-inf"))
        agg = torch.softmax(logits, dim=1) @ h
        h = F.elu(self.lin_mid(torch.cat([h, agg], dim=-1)))
        return self.lin_out(h)
