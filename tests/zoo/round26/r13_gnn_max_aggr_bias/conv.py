"""Message-passing layer with max aggregation, written in the PyG tutorial style."""
import torch
import torch.nn as nn


class MaxAggrConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_channels))

    def propagate(self, edge_index, x):
        src, dst = edge_index
        messages = x[src]
        index = dst.unsqueeze(-1).expand_as(messages)
        out = torch.zeros(x.shape[0], x.shape[1], dtype=x.dtype)
        return out.scatter_reduce(0, index, messages, reduce="amax", include_self=False)

    def forward(self, x, edge_index):
        x = self.lin(x)
        out = self.propagate(edge_index, x)
        out += self.bias
        return out


class MaxAggrConvOutOfPlace(MaxAggrConv):
    def forward(self, x, edge_index):
        out = self.propagate(edge_index, self.lin(x))
        return out + self.bias
