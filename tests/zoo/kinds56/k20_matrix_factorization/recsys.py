import torch
import torch.nn as nn


class BiasedMF(nn.Module):
    """Matrix factorization with user/item biases; index 0 is a padding item."""

    def __init__(self, n_users, n_items, dim=16, max_norm=3.0):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items + 1, dim)
        self.user_bias = nn.Embedding(n_users, 1)
        self.item_bias = nn.Embedding(n_items + 1, 1)
        self.global_bias = nn.Parameter(torch.zeros(1))
        self.max_norm = max_norm
        nn.init.normal_(self.users.weight, std=0.1)
        nn.init.normal_(self.items.weight, std=0.1)

    def constrain_(self):
        self.users.weight.data.renorm_(2, 0, self.max_norm)
        self.items.weight.data.renorm_(2, 0, self.max_norm)
        self.items.weight.data[0] = 0.0
        self.item_bias.weight.data[0] = 0.0

    def forward(self, user, item):
        dot = (self.users(user) * self.items(item)).sum(-1)
        return dot + self.user_bias(user).squeeze(-1) + self.item_bias(item).squeeze(-1) + self.global_bias
