"""Message-passing layers that expose per-edge weights as gradient leaves for post-hoc explainers."""
import torch
import torch.nn as nn


def add_self_loops(edge_index, num_nodes):
    loops = torch.arange(num_nodes).repeat(2, 1)
    return torch.cat([edge_index, loops], dim=1)


def gcn_norm(edge_index, num_nodes):
    edge_index = add_self_loops(edge_index, num_nodes)
    src, dst = edge_index
    deg = torch.zeros(num_nodes).index_add_(0, dst, torch.ones(dst.numel()))
    inv_sqrt = deg.pow(-0.5)
    return edge_index, inv_sqrt[src] * inv_sqrt[dst]


class ExplainableGCNConv(nn.Module):
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_dim, out_dim))
        self.bias = nn.Parameter(torch.zeros(out_dim))
        nn.init.xavier_uniform_(self.weight)
        self.edge_weight = None

    def forward(self, x, edge_index, edge_weight=None):
        if edge_weight is None:
            edge_index, edge_weight = gcn_norm(edge_index, x.shape[0])
        # explainers read d(output)/d(edge_weight) after a backward pass
        edge_weight.requires_grad_(True)
        x = x @ self.weight
        src, dst = edge_index
        out = torch.zeros_like(x).index_add(0, dst, x[src] * edge_weight.view(-1, 1))
        out += self.bias
        self.edge_weight = edge_weight
        return out


class ExplainableGINConv(nn.Module):
    def __init__(self, mlp, eps=0.0):
        super().__init__()
        self.mlp = mlp
        self.eps = eps
        self.edge_weight = None

    def forward(self, x, edge_index):
        num_nodes = x.shape[0]
        edge_index = add_self_loops(edge_index, num_nodes)
        edge_weight = torch.ones(edge_index.shape[1])
        edge_weight.data[-num_nodes:] += self.eps
        edge_weight = edge_weight.detach().clone()
        edge_weight.requires_grad_(True)
        self.edge_weight = edge_weight
        src, dst = edge_index
        agg = torch.zeros_like(x).index_add(0, dst, x[src] * edge_weight.view(-1, 1))
        return self.mlp(agg)
