"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 8 (written for this check)

The recommender keeps a log-popularity prior as an `nn.Parameter` so it is saved with the
state dict, but it is a value, not a weight: it is filled by hand with `.data.fill_()` /
`.data.copy_()` from interaction counts, read only through `.data` and `.detach().clone()`
snapshots, and left out of the optimizer. The asserts show every optimized parameter gets a
nonzero gradient and moves, and the prior equals the hand-computed counts.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class PopularityAwareTwoTower(nn.Module):
    def __init__(self, n_users, n_items, d=8, prior_weight=0.5):
        super().__init__()
        self.user_tower = nn.Sequential(nn.Embedding(n_users, d), nn.Linear(d, d))
        self.item_tower = nn.Sequential(nn.Embedding(n_items, d), nn.Linear(d, d))
        self.log_pop = nn.Parameter(torch.empty(n_items))
        self.log_pop.data.fill_(0.0)
        self.prior_weight = prior_weight

    def refresh_prior(self, item_counts):
        centred = torch.log1p(item_counts) - torch.log1p(item_counts).mean()
        self.log_pop.data.copy_(centred)

    def forward(self, users, items):
        score = (self.user_tower(users) * self.item_tower(items)).sum(-1)
        return score + self.prior_weight * self.log_pop.data[items]

    def prior_snapshot(self):
        return self.log_pop.detach().clone()


n_users, n_items = 20, 15
users, items = torch.randint(0, n_users, (128,)), torch.randint(0, n_items, (128,))
clicks = (torch.rand(128) > 0.5).float()
towers = [PopularityAwareTwoTower(n_users, n_items)]
model = towers[0]
trainable = [p for n, p in model.named_parameters() if n != "log_pop"]
opt = torch.optim.Adam(trainable, lr=0.05)

counts = torch.bincount(items, minlength=n_items).float()
model.refresh_prior(counts)
snap = model.prior_snapshot()
before = [p.detach().clone() for p in trainable]
opt.zero_grad()
F.binary_cross_entropy_with_logits(model(users, items), clicks).backward()
for p in trainable:
    assert p.grad is not None and p.grad.abs().sum() > 0
opt.step()
assert all(not torch.equal(a, p) for a, p in zip(before, trainable))
assert torch.allclose(model.log_pop, torch.log1p(counts) - torch.log1p(counts).mean())
model.refresh_prior(counts * 2)
assert not torch.equal(snap, model.log_pop)
print("ok: the prior parameter is a hand-filled value kept out of the optimizer")
