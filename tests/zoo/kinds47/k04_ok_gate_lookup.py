"""
expect: none
dynamic: dismiss
source: kinds check 47, kind 2

A recommendation tower computes a learned query displacement, picks the nearest
catalogue items by integer index inside torch.no_grad() (cdist + topk only), and
then gathers and mixes the item embeddings with the displaced query outside the
block. The displacement layer receives a gradient.
"""
import torch
import torch.nn as nn


def nearest_ids(queries, catalogue, k):
    return torch.cdist(queries, catalogue).topk(k, dim=-1, largest=False).indices


class QueryTower(nn.Module):
    def __init__(self, dim=16, k=5):
        super().__init__()
        self.k = k
        self.displace = nn.Linear(dim, dim)
        self.mix = nn.Linear(2 * dim, 1)

    def forward(self, users, items):
        q = users + self.displace(users)
        with torch.no_grad():
            ids = nearest_ids(q, items, self.k)
        picked = items[ids]
        pair = torch.cat([picked, q.unsqueeze(1).expand_as(picked)], dim=-1)
        return self.mix(pair).squeeze(-1)


torch.manual_seed(3)
tower = QueryTower()
users, items = torch.randn(8, 16), torch.randn(100, 16)
tower(users, items).logsumexp(-1).mean().backward()
assert tower.displace.weight.grad is not None and tower.displace.weight.grad.abs().sum() > 0
assert tower.mix.weight.grad.abs().sum() > 0
print("k04 ok: only indices under no_grad, displacement trains")
