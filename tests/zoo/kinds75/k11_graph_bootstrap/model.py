"""Bootstrapped graph representation learning (online / EMA target)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class GCNEncoder(nn.Module):
    def __init__(self, in_dim, hid=32, out_dim=16):
        super().__init__()
        self.lin1 = nn.Linear(in_dim, hid)
        self.lin2 = nn.Linear(hid, out_dim)

    def forward(self, x, adj_norm):
        h = F.relu(adj_norm @ self.lin1(x))
        return adj_norm @ self.lin2(h)


class GraphBootstrap(nn.Module):
    def __init__(self, in_dim, momentum=0.99):
        super().__init__()
        self.online = GCNEncoder(in_dim)
        self.predictor = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))
        self.target = copy.deepcopy(self.online)
        for p in self.target.parameters():
            p.requires_grad_(False)
        self.momentum = momentum

    @torch.no_grad()
    def target_embedding(self, x, adj_norm):
        return F.normalize(self.target(x, adj_norm), dim=-1)

    @torch.no_grad()
    def update_target(self):
        for t, o in zip(self.target.parameters(), self.online.parameters()):
            t.mul_(self.momentum).add_(o, alpha=1 - self.momentum)

    def compute_loss(self, view_a, view_b, adj_norm):
        pred_a = F.normalize(self.predictor(self.online(view_a, adj_norm)), dim=-1)
        pred_b = F.normalize(self.predictor(self.online(view_b, adj_norm)), dim=-1)
        tgt_a = self.target_embedding(view_a, adj_norm)
        tgt_b = self.target_embedding(view_b, adj_norm)
        return (2 - 2 * (pred_a * tgt_b).sum(-1)).mean() + (2 - 2 * (pred_b * tgt_a).sum(-1)).mean()
