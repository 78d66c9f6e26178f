"""
expect: none
dynamic: dismiss
source: https://github.com/meta-pytorch/torchrec/pull/2836

A managed-collision embedding for a two-tower recommender remaps raw ids to a fixed set
of table slots, evicting the least-recently-used slot and re-initialising its row through
`weight.data[rows] = ...` (as in the PR) before a new id uses it. Several lookups (user
history, positive item, negative item) share the table before one backward, so a later
lookup can reset a row an earlier lookup already read. The embedding op saves only the
indices for backward, never the weight, so the reset cannot corrupt a pending gradient.
The program asserts such a reset happened, that the table gradient equals the
scatter-add of the output gradients at the looked-up slots, and that the towers train.
"""
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class ManagedCollisionEmbedding(nn.Module):
    def __init__(self, num_slots, dim):
        super().__init__()
        self.table = nn.Embedding(num_slots, dim)
        self.num_slots = num_slots
        self.slot_of = OrderedDict()
        self.evicted_log = []

    def remap(self, raw_ids):
        slots, evicted = [], []
        for raw in raw_ids.tolist():
            if raw in self.slot_of:
                self.slot_of.move_to_end(raw)
            elif len(self.slot_of) < self.num_slots:
                self.slot_of[raw] = len(self.slot_of)
            else:
                _, slot = self.slot_of.popitem(last=False)
                self.slot_of[raw] = slot
                evicted.append(slot)
            slots.append(self.slot_of[raw])
        return torch.tensor(slots, dtype=torch.long), evicted

    def forward(self, raw_ids):
        slots, evicted = self.remap(raw_ids)
        self.evicted_log.extend(evicted)
        if evicted:
            rows = torch.tensor(evicted, dtype=torch.long)
            self.table.weight.data[rows] = torch.randn(len(evicted), self.table.embedding_dim) * 0.01
        out = self.table(slots)
        out.retain_grad()
        self.last_lookup = (slots, out)
        return out


class TwoTower(nn.Module):
    def __init__(self, num_slots=8, dim=8):
        super().__init__()
        self.ids = ManagedCollisionEmbedding(num_slots, dim)
        self.user_tower = nn.Linear(dim, dim)
        self.item_tower = nn.Linear(dim, dim, bias=False)

    def forward(self, history, pos_item, neg_item):
        lookups = []
        user = self.user_tower(self.ids(history).mean(0))
        lookups.append(self.ids.last_lookup)
        self.evicted_before_items = len(self.ids.evicted_log)
        pos = self.item_tower(self.ids(pos_item))
        lookups.append(self.ids.last_lookup)
        neg = self.item_tower(self.ids(neg_item))
        lookups.append(self.ids.last_lookup)
        score_pos, score_neg = (user * pos).sum(-1), (user * neg).sum(-1)
        return F.softplus(score_neg - score_pos).mean(), lookups


model = TwoTower()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
before = {n: p.detach().clone() for n, p in model.named_parameters()}
reset_after_lookup = 0
for step in range(5):
    history = torch.randint(100 * step, 100 * step + 6, (6,))
    pos_item = torch.randint(1000, 1004, (3,))
    neg_item = torch.randint(2000 + 10 * step, 2000 + 10 * step + 5, (3,))
    model.ids.evicted_log = []
    loss, lookups = model(history, pos_item, neg_item)
    first_pass_slots = set(lookups[0][0].tolist())
    later_resets = set(model.ids.evicted_log[model.evicted_before_items:])
    reset_after_lookup += len(first_pass_slots & later_resets)
    optimizer.zero_grad()
    loss.backward()
    expected = torch.zeros_like(model.ids.table.weight)
    for slots, out in lookups:
        expected.index_add_(0, slots, out.grad)
    assert torch.allclose(model.ids.table.weight.grad, expected, atol=1e-7)
    optimizer.step()

assert reset_after_lookup > 0, "no row was reset after being looked up in the same step"
assert all(not torch.equal(before[n], p) for n, p in model.named_parameters())

print("OK")
