"""
expect: GL001 48
dynamic: confirm
source: none, invented

Recommender systems. A two-tower retrieval model is trained with `TowerBPRLoss`, an nn.Module whose
forward receives the two towers themselves (`user_tower`, `item_tower`) plus the id batch. Besides the
BPR ranking term it adds a norm-calibration term that should pull item embedding norms toward a target
(so that dot-product scores stay calibrated for ANN search). That term is computed from
`item_tower(pos_items).detach()`, so it changes the reported loss but contributes zero gradient: the
regulariser does nothing. The asserts show the towers' gradients are identical with reg_weight 0 and 1
while the loss values differ, and that the fixed loss (no detach) changes the gradients and, after
training, brings the item norms much closer to the target than training without it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class IdTower(nn.Module):
    def __init__(self, n_ids, dim=16):
        super().__init__()
        self.emb = nn.Embedding(n_ids, dim)
        self.proj = nn.Linear(dim, dim)
        nn.init.normal_(self.emb.weight, std=1.0)

    def forward(self, ids):
        return self.proj(torch.tanh(self.emb(ids)))


class TowerBPRLoss(nn.Module):
    def __init__(self, reg_weight=1.0, target_norm=1.0):
        super().__init__()
        self.reg_weight = reg_weight
        self.target_norm = target_norm

    def bpr(self, user_tower, item_tower, users, pos_items, neg_items):
        u = user_tower(users)
        pos = (u * item_tower(pos_items)).sum(-1)
        neg = (u * item_tower(neg_items)).sum(-1)
        return -F.logsigmoid(pos - neg).mean()

    def norm_term(self, item_vecs):
        return (item_vecs.norm(dim=-1) - self.target_norm).pow(2).mean()

    def forward(self, user_tower, item_tower, users, pos_items, neg_items):
        rank = self.bpr(user_tower, item_tower, users, pos_items, neg_items)
        calib = self.norm_term(item_tower(pos_items).detach())
        return rank + self.reg_weight * calib


class FixedTowerBPRLoss(TowerBPRLoss):
    def forward(self, user_tower, item_tower, users, pos_items, neg_items):
        rank = self.bpr(user_tower, item_tower, users, pos_items, neg_items)
        calib = self.norm_term(item_tower(pos_items))
        return rank + self.reg_weight * calib


def interactions(n=256, n_users=40, n_items=60, seed=0):
    g = torch.Generator().manual_seed(seed)
    users = torch.randint(0, n_users, (n,), generator=g)
    pos = (users * 7 + torch.randint(0, 3, (n,), generator=g)) % n_items
    neg = torch.randint(0, n_items, (n,), generator=g)
    return users, pos, neg


def towers():
    torch.manual_seed(0)
    return IdTower(40), IdTower(60)


def grads(loss_fn, batch):
    ut, it = towers()
    loss = loss_fn(ut, it, *batch)
    loss.backward()
    return loss.item(), torch.cat([p.grad.flatten() for p in list(ut.parameters()) + list(it.parameters())])


def mean_norm_gap(loss_fn, batch, steps=60):
    ut, it = towers()
    opt = torch.optim.Adam(list(ut.parameters()) + list(it.parameters()), lr=1e-2)
    for _ in range(steps):
        opt.zero_grad()
        loss_fn(ut, it, *batch).backward()
        opt.step()
    with torch.no_grad():
        norms = it(torch.arange(60)).norm(dim=-1)
    return (norms - 1.0).abs().mean().item()


def main():
    batch = interactions()
    l0, g0 = grads(TowerBPRLoss(reg_weight=0.0), batch)
    l1, g1 = grads(TowerBPRLoss(reg_weight=1.0), batch)
    assert abs(l1 - l0) > 1e-3, (l0, l1)
    assert torch.allclose(g0, g1), "detached calibration term unexpectedly produced gradient"
    print(f"buggy: loss {l0:.4f} vs {l1:.4f} but identical gradients")

    _, gf = grads(FixedTowerBPRLoss(reg_weight=1.0), batch)
    assert not torch.allclose(g0, gf)
    gap_none = mean_norm_gap(TowerBPRLoss(reg_weight=0.0), batch)
    gap_fixed = mean_norm_gap(FixedTowerBPRLoss(reg_weight=1.0), batch)
    assert gap_fixed < 0.5 * gap_none, (gap_none, gap_fixed)
    print(f"fixed: norm gap to target {gap_fixed:.3f} vs {gap_none:.3f} without the term")


if __name__ == "__main__":
    main()
