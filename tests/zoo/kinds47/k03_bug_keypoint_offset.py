"""
expect: GL001 33
dynamic: confirm
source: kinds check 47, kind 2

A point-cloud head predicts a learned offset for each seed point, then builds
local relative geometry around the shifted seeds with a plain tensor helper
(cdist, topk, gather). The helper is called inside torch.no_grad(), so the
relative coordinates carry no history back to the offset layer: it never learns.
"""
import torch
import torch.nn as nn


def local_geometry(centers, points, k):
    d = torch.cdist(centers, points)
    idx = d.topk(k, dim=-1, largest=False).indices
    nbr = torch.gather(points.unsqueeze(1).expand(-1, centers.size(1), -1, -1), 2,
                       idx.unsqueeze(-1).expand(-1, -1, -1, points.size(-1)))
    return torch.cat([nbr - centers.unsqueeze(2), d.gather(2, idx).unsqueeze(-1)], dim=-1)


class SeedRefiner(nn.Module):
    def __init__(self, k=4):
        super().__init__()
        self.k = k
        self.offset = nn.Linear(3, 3)
        self.encode = nn.Linear(4, 8)
        self.score = nn.Linear(8, 1)

    def forward(self, seeds, cloud):
        shifted = seeds + self.offset(seeds)
        with torch.no_grad():
            geo = local_geometry(shifted, cloud, self.k)
        h = torch.relu(self.encode(geo)).max(dim=2).values
        return self.score(h).squeeze(-1)


torch.manual_seed(2)
model = SeedRefiner()
seeds, cloud = torch.randn(2, 10, 3), torch.randn(2, 50, 3)
model(seeds, cloud).pow(2).mean().backward()
assert model.offset.weight.grad is None
assert model.encode.weight.grad is not None and model.score.weight.grad is not None

# intended: the same helper without no_grad gives the offset layer a gradient
model.zero_grad()
geo = local_geometry(seeds + model.offset(seeds), cloud, model.k)
model.score(torch.relu(model.encode(geo)).max(dim=2).values).pow(2).mean().backward()
assert model.offset.weight.grad is not None and model.offset.weight.grad.abs().sum() > 0
print("k03 ok: offset layer starved by no_grad helper call")
