"""Graph convolution layers (Kipf & Welling style, dense adjacency)."""
import torch
import torch.nn as nn


def normalise_adjacency(adj):
    adj = adj + torch.eye(adj.shape[0])
    deg = adj.sum(1)
    d_inv_sqrt = deg.pow(-0.5)
    return d_inv_sqrt[:, None] * adj * d_inv_sqrt[None, :]


class GraphConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.lin = nn.Linear(in_dim, out_dim)

    def forward(self, x, adj_norm):
        return adj_norm @ self.lin(x)


class GCN(nn.Module):
    def __init__(self, in_dim, hidden, n_classes):
        super().__init__()
        self.conv1 = GraphConv(in_dim, hidden)
        self.conv2 = GraphConv(hidden, n_classes)

    def forward(self, x, adj_norm):
        h = torch.relu(self.conv1(x, adj_norm))
        return self.conv2(h, adj_norm)
