"""
expect: none
dynamic: dismiss
source: https://github.com/pyg-team/pytorch_geometric/issues/8953

The issue points at the in-place `out += self.bias` (and the in-place edit of
deg_inv_sqrt) in the message-passing tutorial as a possible autograd hazard. In this
sum-aggregation layer neither edit touches a tensor that a recorded op saved: the
aggregated `out` comes from index_add, whose backward does not need its result, and
deg is built from constants. The asserts check that a two-layer GCN trains, that its
gradients match an out-of-place copy of the layer, and that the loss falls.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

import conv
from conv import GCNConv

torch.manual_seed(0)
torch.set_num_threads(1)


class GCN(nn.Module):
    def __init__(self, f_in=8, hid=16, n_cls=3):
        super().__init__()
        self.c1 = GCNConv(f_in, hid)
        self.c2 = GCNConv(hid, n_cls)

    def forward(self, x, ei):
        return self.c2(F.relu(self.c1(x, ei)), ei)


class GCNConvOutOfPlace(GCNConv):
    def forward(self, x, edge_index):
        n = x.size(0)
        edge_index = conv.add_self_loops(edge_index, n)
        x = self.lin(x)
        row, col = edge_index
        deg = torch.zeros(n).index_add(0, col, torch.ones(col.numel()))
        dis = deg.pow(-0.5)
        dis = torch.where(torch.isinf(dis), torch.zeros_like(dis), dis)
        msg = (dis[row] * dis[col]).view(-1, 1) * x[row]
        return torch.zeros(n, x.size(1)).index_add(0, col, msg) + self.bias


n = 20
x = torch.randn(n, 8)
ei = torch.randint(0, n, (2, 60))
y = torch.randint(0, 3, (n,))

model = GCN()
ref = copy.deepcopy(model)
ref.c1.__class__ = GCNConvOutOfPlace
ref.c2.__class__ = GCNConvOutOfPlace

F.cross_entropy(model(x, ei), y).backward()
F.cross_entropy(ref(x, ei), y).backward()
for a, b in zip(model.parameters(), ref.parameters()):
    assert torch.allclose(a.grad, b.grad, atol=1e-6)
assert model.c1.bias.grad.abs().sum() > 0

opt = torch.optim.Adam(model.parameters(), lr=0.02)
losses = []
for _ in range(30):
    loss = F.cross_entropy(model(x, ei), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert losses[-1] < 0.8 * losses[0]
print("ok")
