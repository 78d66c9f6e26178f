"""
expect: GL005 layers.py:34
dynamic: confirm
source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/57

Spatio-temporal GCN block: after the temporal convolution, each (batch, time)
slice of the feature buffer is passed through a graph convolution and the result
is written back into the same buffer with `t[b][k] = gconv(t[b][k])`. The linear
layer inside the graph conv saved that slice (a view of the buffer) for its
backward, and the write-back bumps the buffer's version, so backward fails with
the in-place error. The asserts show the error and that collecting the slices
with torch.stack instead trains both the temporal and graph weights.
"""
import torch
import torch.nn as nn
from layers import STBlock, normalized_adjacency

torch.manual_seed(0)
torch.set_num_threads(1)

N, C, T, B = 5, 4, 6, 2
edge_index = torch.tensor([[0, 1, 2, 3, 4, 1], [1, 2, 3, 4, 0, 3]])
a_hat = normalized_adjacency(edge_index, N)
x = torch.randn(B, C, N, T)
y = torch.randn(B, C, N, T)

block = STBlock(C)
err = None
try:
    ((block(x, a_hat) - y) ** 2).mean().backward()
except RuntimeError as e:
    err = str(e)
assert err is not None and "inplace operation" in err, err


def forward_fixed(blk, x, a_hat):
    t = torch.relu(blk.temporal(x)).permute(0, 3, 2, 1)
    rows = [torch.stack([blk.gconv(t[b][k], a_hat) for k in range(t.size(1))]) for b in range(t.size(0))]
    return torch.stack(rows).permute(0, 3, 2, 1)


block.zero_grad()
((forward_fixed(block, x, a_hat) - y) ** 2).mean().backward()
assert block.gconv.lin.weight.grad.abs().sum() > 0
assert block.temporal.weight.grad.abs().sum() > 0
print("ok")
