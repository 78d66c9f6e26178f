"""
expect: GL005 31
dynamic: confirm
source: https://github.com/pytorch/pytorch/issues/26596

The report: an nn.Embedding with max_norm used both through `.weight` and through a
lookup fails at backward, depending on the order of the two lines, because the
lookup renormalises the weight rows in place. Here a two-tower recommender scores a
user against the full item table (saving the table for backward) and then looks up
the positive items, which rescales the table in place. The asserts show backward
fails with the in-place version error, and that doing the lookup first (or no
max_norm) trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class ItemTower(nn.Module):
    def __init__(self, n_items, d, max_norm=1.0):
        super().__init__()
        self.table = nn.Embedding(n_items, d, max_norm=max_norm)

    def catalogue(self):
        return self.table.weight

    def lookup(self, idx):
        return self.table(idx)


class UserTower(nn.Module):
    def __init__(self, n_feat, d):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        return self.net(x)


class TwoTower(nn.Module):
    def __init__(self, n_items=40, n_feat=10, d=16, lookup_first=False):
        super().__init__()
        self.items = ItemTower(n_items, d)
        self.users = UserTower(n_feat, d)
        self.lookup_first = lookup_first

    def loss(self, feats, pos):
        u = self.users(feats)
        if self.lookup_first:
            v_pos = self.items.lookup(pos)
            logits = u @ self.items.catalogue().t()
        else:
            logits = u @ self.items.catalogue().t()
            v_pos = self.items.lookup(pos)
        align = (u * v_pos).sum(-1).mean()
        return F.cross_entropy(logits, pos) - 0.1 * align


feats = torch.randn(8, 10)
pos = torch.randint(0, 40, (8,))

model = TwoTower()
before = model.items.table.weight._version
loss = model.loss(feats, pos)
assert model.items.table.weight._version > before  # lookup rescaled rows in place
failed = False
try:
    loss.backward()
except RuntimeError as e:
    failed = "modified by an inplace operation" in str(e)
assert failed

ok_model = TwoTower(lookup_first=True)
ok_model.loss(feats, pos).backward()
assert ok_model.items.table.weight.grad is not None
assert ok_model.users.net[0].weight.grad.abs().sum() > 0
print("ok")
