"""
expect: GL005 28
dynamic: confirm
source: kinds check 27, kind 4

A next-item recommender scores the whole catalogue against the item table
(full softmax), then looks up the positive items' rows for an alignment term.
The item table has max_norm, so that later lookup renormalises the weight in
place after the matmul saved it, and backward fails.
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
        logits = query @ self.items.weight.t()
        pos_vecs = self.items(pos_items)
        align = (1.0 - F.cosine_similarity(query, pos_vecs, dim=-1)).mean()
        return F.cross_entropy(logits, pos_items) + 0.1 * align


model = NextItemModel()
user_ids = torch.randint(0, 30, (10,))
pos_items = torch.randint(0, 50, (10,))
loss = model(user_ids, pos_items)

try:
    loss.backward()
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err
    print("backward failed as expected:", str(err).splitlines()[0][:90])
else:
    raise AssertionError("backward should have failed")
