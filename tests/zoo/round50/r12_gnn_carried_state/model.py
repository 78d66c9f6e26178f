"""Linear GNN (Scarselli-style fixed-point iteration) whose node states live on the module."""
import torch
import torch.nn as nn


class Xi(nn.Module):
    """Edge transition: maps (x_src, x_dst) to an s x s contraction matrix."""

    def __init__(self, ln, s, hidden=16, mu=0.9):
        super().__init__()
        self.s, self.mu = s, mu
        self.net = nn.Sequential(nn.Linear(2 * ln, hidden), nn.Tanh(),
                                 nn.Linear(hidden, s * s), nn.Tanh())

    def forward(self, pair):
        return self.net(pair).view(-1, self.s, self.s) * (self.mu / self.s)


class Rou(nn.Module):
    """Edge bias from the destination node's label."""

    def __init__(self, ln, s):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(ln, s), nn.Tanh())

    def forward(self, x):
        return self.net(x)


class LinearGNN(nn.Module):
    def __init__(self, feats, edge_index, s=4, num_classes=3, T=4):
        super().__init__()
        self.feats, self.edge_index, self.T = feats, edge_index, T
        ln = feats.size(1)
        self.xi = Xi(ln, s)
        self.rou = Rou(ln, s)
        self.out = nn.Linear(ln + s, num_classes)
        # node states are kept between calls so the iteration "warm starts"
        self.node_states = torch.zeros(feats.size(0), s)

    def forward(self):
        src, dst = self.edge_index
        A = self.xi(torch.cat([self.feats[src], self.feats[dst]], dim=1))
        b = self.rou(self.feats[dst])
        for _ in range(self.T):
            h_src = self.node_states[src].unsqueeze(2)
            msgs = torch.bmm(A, h_src).squeeze(2) + b
            self.node_states = torch.zeros_like(self.node_states).index_add(0, dst, msgs)
        return self.out(torch.cat([self.feats, self.node_states], dim=1))
