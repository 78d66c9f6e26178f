import torch
import torch.nn as nn
import torch.nn.functional as F


class NodeUpdateBlock(nn.Module):
    """One round of message passing: transform neighbours, sum them per node, update each node."""

    def __init__(self, dim):
        super().__init__()
        self.message_mlp = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))
        self.update = nn.Linear(2 * dim, dim)

    def messages(self, x, edge_index):
        src = edge_index[0]
        return self.message_mlp(x[src]).data

    def aggregate(self, msgs, edge_index, num_nodes):
        dst = edge_index[1]
        out = msgs.new_zeros(num_nodes, msgs.size(1))
        return out.index_add(0, dst, msgs)

    def forward(self, x, edge_index):
        agg = self.aggregate(self.messages(x, edge_index), edge_index, x.size(0))
        return F.relu(self.update(torch.cat([x, agg], dim=-1)))


class NodeClassifier(nn.Module):
    def __init__(self, in_dim, hidden, n_classes, block_cls=NodeUpdateBlock):
        super().__init__()
        self.inp = nn.Linear(in_dim, hidden)
        self.blocks = nn.ModuleList([block_cls(hidden) for _ in range(2)])
        self.out = nn.Linear(hidden, n_classes)

    def forward(self, x, edge_index):
        h = F.relu(self.inp(x))
        for block in self.blocks:
            h = block(h, edge_index)
        return self.out(h)
