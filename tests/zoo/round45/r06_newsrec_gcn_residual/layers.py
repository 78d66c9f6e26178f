"""Graph layers for the news encoder (GCN over a click co-occurrence graph)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GCNLayer(nn.Module):
    def __init__(self, in_dim, out_dim, residual=False):
        super().__init__()
        if residual and in_dim != out_dim:
            raise ValueError("residual connection needs in_dim == out_dim")
        self.residual = residual
        self.W = nn.Linear(in_dim, out_dim)

    # feature : [batch, node_num, dim], graph : [batch, node_num, node_num]
    def forward(self, feature, graph):
        out = self.W(torch.bmm(graph, feature))
        out = F.relu(out)
        if self.residual:
            out += feature
        return out


class GCN(nn.Module):
    def __init__(self, dim, num_layers=2, residual=True):
        super().__init__()
        self.layers = nn.ModuleList([GCNLayer(dim, dim, residual=residual) for _ in range(num_layers)])

    def forward(self, feature, graph):
        out = feature
        for layer in self.layers:
            out = layer(out, graph)
        return out
