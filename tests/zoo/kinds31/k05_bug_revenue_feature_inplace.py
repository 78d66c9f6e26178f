"""
expect: GL005 19
dynamic: confirm
source: kinds check 31, kind 3

A demand model predicts (price, quantity, discount). The helper derives revenue
as price * quantity, then shifts the other columns in place on the same tensor.
Given the network output, the saved operands of the product are overwritten and
backward fails.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


def add_revenue(rows):
    revenue = rows[:, 0] * rows[:, 1]
    rows[:, 1:] += 1.0
    return torch.cat([rows, revenue.unsqueeze(1)], dim=1)


net = nn.Sequential(nn.Linear(7, 12), nn.Softplus(), nn.Linear(12, 3))
feats = torch.randn(16, 7)
target = torch.rand(16, 4)

pred = net(feats)
out = add_revenue(pred)
loss = nn.functional.l1_loss(out, target)

try:
    loss.backward()
except RuntimeError as e:
    msg = str(e)
else:
    msg = ""
assert "modified by an inplace operation" in msg, msg
print("ok: backward raised in-place error")
