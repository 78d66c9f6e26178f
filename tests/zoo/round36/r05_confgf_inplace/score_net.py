import torch
import torch.nn as nn


class EdgeMPLayer(nn.Module):
    """One message-passing step over atom pairs (edge features are distances)."""

    def __init__(self, dim, inplace_residual=True):
        super().__init__()
        self.node_mlp = nn.Linear(dim, dim)
        self.edge_mlp = nn.Linear(1, dim)
        self.inplace_residual = inplace_residual

    def forward(self, h, edge_index, edge_len):
        src, dst = edge_index
        node = torch.relu(self.node_mlp(h))
        msg = node[src] * self.edge_mlp(edge_len)
        agg = torch.zeros_like(node).index_add(0, dst, msg)
        if self.inplace_residual:
            node += agg
            return node
        return node + agg


class DistanceScoreNet(nn.Module):
    """Predicts a score (d log p / d distance) per edge, ConfGF style."""

    def __init__(self, n_types=5, dim=16, inplace_residual=True):
        super().__init__()
        self.embed = nn.Embedding(n_types, dim)
        self.layers = nn.ModuleList([EdgeMPLayer(dim, inplace_residual) for _ in range(2)])
        self.out = nn.Linear(2 * dim + 1, 1)

    def forward(self, atom_types, edge_index, edge_len):
        h = self.embed(atom_types)
        for layer in self.layers:
            h = layer(h, edge_index, edge_len)
        src, dst = edge_index
        feat = torch.cat([h[src], h[dst], edge_len], dim=-1)
        return self.out(feat)
