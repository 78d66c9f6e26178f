"""Graph forecaster whose local spatial-temporal adjacency is re-weighted by a learnable mask."""
import torch
import torch.nn as nn


def local_st_adjacency(adj, steps=3):
    n = adj.shape[0]
    eye = torch.eye(n)
    blocks = [[adj if i == j else (eye if abs(i - j) == 1 else torch.zeros(n, n))
               for j in range(steps)] for i in range(steps)]
    return torch.cat([torch.cat(row, dim=1) for row in blocks], dim=0) + torch.eye(n * steps)


class MaskedSTGCN(nn.Module):
    def __init__(self, road_adj, hidden=8, use_mask=True):
        super().__init__()
        base = local_st_adjacency(road_adj)
        self.register_buffer("base_adj", base)
        if use_mask:
            # learnable edge weights, initialised to the graph's support
            self.mask = nn.Parameter((base != 0).float())
            self.adj = self.mask * base
        else:
            self.adj = base
        self.embed = nn.Linear(1, hidden)
        self.gcn = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):  # x: (batch, 3 * nodes, 1)
        h = torch.relu(self.embed(x))
        h = torch.relu(self.gcn(torch.matmul(self.adj, h)))
        return self.out(h).squeeze(-1)
