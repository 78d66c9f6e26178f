import torch
import torch.nn as nn


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


class GCNConv(nn.Module):
    """Message passing layer written the way the tutorial does it."""

    def __init__(self, in_ch, out_ch):
        super().__init__()
        self.lin = nn.Linear(in_ch, out_ch, bias=False)
        self.bias = nn.Parameter(torch.zeros(out_ch))

    def forward(self, x, edge_index):
        n = x.size(0)
        edge_index = add_self_loops(edge_index, n)
        x = self.lin(x)
        row, col = edge_index
        deg = torch.zeros(n).index_add_(0, col, torch.ones(col.numel()))
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
        norm = deg_inv_sqrt[row] * deg_inv_sqrt[col]
        msg = norm.view(-1, 1) * x[row]
        out = torch.zeros(n, x.size(1)).index_add(0, col, msg)
        out += self.bias
        return out
