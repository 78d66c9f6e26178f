import torch
import torch.nn as nn


class MatrixFactorization(nn.Module):
    def __init__(self, n_users, n_items, dim=8, max_norm=1.0):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim)
        self.log_temp = nn.Parameter(torch.zeros(()))
        self.max_norm = max_norm

    def _apply_constraints(self):
        with torch.no_grad():
            self.users.weight.copy_(torch.renorm(self.users.weight, 2, 0, self.max_norm))
        self.items.weight.data.copy_(torch.renorm(self.items.weight.data, 2, 0, self.max_norm))
        self.log_temp.data.clamp_(-2.0, 2.0)

    def forward(self, u, i):
        self._apply_constraints()
        score = (self.users(u) * self.items(i)).sum(-1)
        return score * self.log_temp.exp()
