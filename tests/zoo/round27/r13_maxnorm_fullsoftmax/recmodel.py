import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoTowerRec(nn.Module):
    """User tower + item table. Item vectors are kept inside the unit ball with
    nn.Embedding(max_norm=...), which renormalises the looked-up rows of
    `weight` in place during forward."""

    def __init__(self, n_users=50, n_items=40, dim=16, clone_table=False):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.user_mlp = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self.item_emb = nn.Embedding(n_items, dim, max_norm=1.0)
        self.clone_table = clone_table

    def forward(self, users, pos_items, neg_items):
        u = self.user_mlp(self.user_emb(users))
        table = self.item_emb.weight.clone() if self.clone_table else self.item_emb.weight
        # full-catalogue softmax term; the matmul saves `table` for its backward
        all_scores = u @ table.t()
        # BPR term; the lookup renormalises rows of item_emb.weight in place
        pos = self.item_emb(pos_items)
        neg = self.item_emb(neg_items)
        bpr = -F.logsigmoid((u * pos).sum(-1) - (u * neg).sum(-1)).mean()
        return all_scores, bpr
