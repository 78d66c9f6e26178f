"""Spatial-temporal synchronous graph convolution layers (STSGCN-style) for traffic flow forecasting."""
import torch
import torch.nn as nn


class PositionEmbedding(nn.Module):
    def __init__(self, input_length, num_nodes, channels):
        super().__init__()
        self.temporal_emb = nn.Parameter(0.1 * torch.randn(1, input_length, 1, channels))
        self.spatial_emb = nn.Parameter(0.1 * torch.randn(1, 1, num_nodes, channels))

    def forward(self, data):
        data += self.temporal_emb
        data += self.spatial_emb
        return data


class GraphConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.linear = nn.Linear(in_channels, out_channels)

    def forward(self, data, adj):
        return torch.relu(self.linear(torch.matmul(adj, data)))


class STSGCL(nn.Module):
    """One layer: position embedding, then a graph conv over every window of 3 time steps."""

    def __init__(self, input_length, num_nodes, in_channels, out_channels):
        super().__init__()
        self.num_nodes = num_nodes
        self.input_length = input_length
        self.position_embedding = PositionEmbedding(input_length, num_nodes, in_channels)
        self.gcms = nn.ModuleList(GraphConv(in_channels, out_channels) for _ in range(input_length - 2))

    def forward(self, data, adj):
        data = self.position_embedding(data)
        batch, _, n, c = data.shape
        outputs = []
        for i in range(self.input_length - 2):
            window = data[:, i:i + 3].reshape(batch, 3 * n, c)
            h = self.gcms[i](window, adj)
            outputs.append(h[:, n:2 * n].unsqueeze(1))  # keep the middle time step
        return torch.cat(outputs, dim=1)


def local_st_adjacency(adj, steps=3):
    n = adj.shape[0]
    big = torch.zeros(n * steps, n * steps)
    for k in range(steps):
        big[k * n:(k + 1) * n, k * n:(k + 1) * n] = adj
    for k in range(steps - 1):
        idx = torch.arange(n)
        big[k * n + idx, (k + 1) * n + idx] = 1.0
        big[(k + 1) * n + idx, k * n + idx] = 1.0
    return big + torch.eye(n * steps)
