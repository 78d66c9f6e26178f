"""expect: none
dynamic: dismiss
source: https://github.com/lucidrains/alphafold2/blob/main/alphafold2_pytorch/alphafold2.py

A structure-refinement toy model runs several "recycling" passes: the single
representation and coordinates from the previous pass are fed back as extra inputs to
the next pass. Before they are reused, both are detached in one line with
map(torch.detach, (...)); this only cuts gradient flow into earlier passes. The head that
produces the new coordinates runs after the detach on the current pass, so it and the
embedding are still trained by the final loss.
"""
import torch
from torch import nn


class Recycler(nn.Module):
    def __init__(self, d=12):
        super().__init__()
        self.embed = nn.Linear(7, d)
        self.mix = nn.Linear(3 * d + 3, d)
        self.coord_head = nn.Linear(d, 3)
        self.d = d

    def forward(self, feats, rounds=3):
        n = feats.shape[0]
        single = torch.zeros(n, self.d)
        coords = torch.zeros(n, 3)
        base = self.embed(feats)
        for _ in range(rounds):
            single, coords = map(torch.detach, (single, coords))
            h = torch.relu(self.mix(torch.cat([base, single, base * single, coords], dim=-1)))
            single = h
            coords = self.coord_head(h)
        return coords


torch.manual_seed(6)
net = Recycler()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
feats, true_xyz = torch.randn(9, 7), torch.randn(9, 3)
head_before = net.coord_head.weight.detach().clone()
opt.zero_grad()
loss = (net(feats) - true_xyz).pow(2).mean()
loss.backward()
opt.step()

assert net.coord_head.weight.grad is not None
assert net.embed.weight.grad is not None and net.mix.weight.grad is not None
assert not torch.equal(head_before, net.coord_head.weight)
print("all modules trained through the last recycling pass; loss", loss.item())
