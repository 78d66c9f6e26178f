"""Graph convolution stack used by main.py."""
import torch
import torch.nn as nn


class GraphConv(nn.Module):
    def __init__(self, d_in, d_out):
        super().__init__()
        self.lin = nn.Linear(d_in, d_out, bias=False)
        self.bias = nn.Parameter(torch.zeros(d_out))

    def forward(self, h, adj_norm):
        return adj_norm @ self.lin(h) + self.bias


class ResidualGCN(nn.Module):
    def __init__(self, d_in, d_hidden, n_classes, n_layers=3):
        super().__init__()
        self.inp = nn.Linear(d_in, d_hidden)
        self.convs = nn.ModuleList(GraphConv(d_hidden, d_hidden) for _ in range(n_layers))
        self.out = nn.Linear(d_hidden, n_classes)
        self.layer_norms = []  # per-layer feature norms, for the training log only

    def forward(self, x, adj_norm):
        h = torch.relu(self.inp(x))
        self.layer_norms = []
        for i, conv in enumerate(self.convs):
            skip = h
            h = conv(h, adj_norm)
            if i > 0:
                h += skip
            self.layer_norms.append(h.detach().norm(dim=1).mean())
            if i < len(self.convs) - 1:
                h = torch.relu(h)
        return self.out(h)
