"""
expect: none
dynamic: dismiss
source: kinds check 27, kind 4

The same next-item recommender with a max_norm item table, but the positive
rows are looked up before the catalogue-wide matmul, so the in-place
renormalisation happens before anything saves the weight and backward works.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class NextItemModel(nn.Module):
    def __init__(self, n_users=30, n_items=50, dim=16):
        super().__init__()
        self.users = nn.Embedding(n_users, dim)
        self.items = nn.Embedding(n_items, dim, max_norm=1.0)
        self.tower = nn.Linear(dim, dim)

    def forward(self, user_ids, pos_items):
        query = self.tower(self.users(user_ids))
        pos_vecs = self.items(pos_items)
        logits = query @ self.items.weight.t()
        align = (1.0 - F.cosine_similarity(query, pos_vecs, dim=-1)).mean()
        return F.cross_entropy(logits, pos_items) + 0.1 * align


model = NextItemModel()
user_ids = torch.randint(0, 30, (10,))
pos_items = torch.randint(0, 50, (10,))
loss = model(user_ids, pos_items)
loss.backward()

assert model.items.weight.grad is not None
assert model.items.weight.grad.abs().sum().item() > 0.0
assert model.tower.weight.grad is not None
print("backward ok, loss =", loss.item())
