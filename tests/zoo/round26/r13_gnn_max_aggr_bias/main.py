"""
expect: GL005 conv.py:22
dynamic: confirm
source: https://github.com/pyg-team/pytorch_geometric/pull/5353

PyG replaced in-place operations on aggregation outputs with out-of-place ones because,
with scatter-based reductions such as max/mul (torch.scatter_reduce), autograd complains
that a tensor needed for backward was modified in place. One such edit is the
tutorial-style `out += self.bias` right after propagate(): the amax reduction saves its
result for backward, and the bias add overwrites it. Here a two-layer GNN with a
max-aggregation conv (conv.py) is trained for node classification; the asserts show
backward fails with the in-place bias add and that `out + self.bias` trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from conv import MaxAggrConv, MaxAggrConvOutOfPlace

torch.manual_seed(0)
torch.set_num_threads(1)
N, F_IN, HID, C = 30, 8, 16, 3


class GNN(nn.Module):
    def __init__(self, conv_cls):
        super().__init__()
        self.conv1 = conv_cls(F_IN, HID)
        self.conv2 = conv_cls(HID, C)

    def forward(self, x, edge_index):
        return self.conv2(F.relu(self.conv1(x, edge_index)), edge_index)


x = torch.randn(N, F_IN)
y = torch.randint(0, C, (N,))
edge_index = torch.randint(0, N, (2, 120))
edge_index = torch.cat([edge_index, torch.arange(N).repeat(2, 1)], 1)   # self loops

model = GNN(MaxAggrConv)
try:
    F.cross_entropy(model(x, edge_index), y).backward()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised

fixed = GNN(MaxAggrConvOutOfPlace)
fixed.load_state_dict(model.state_dict())
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
first = F.cross_entropy(fixed(x, edge_index), y).item()
for _ in range(50):
    opt.zero_grad()
    F.cross_entropy(fixed(x, edge_index), y).backward()
    opt.step()
assert F.cross_entropy(fixed(x, edge_index), y).item() < first
print("ok: in-place bias add on the amax aggregation output breaks backward")
