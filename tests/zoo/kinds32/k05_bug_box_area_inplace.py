"""
expect: GL005 21
dynamic: confirm
source: kinds check 32, kind 3

Box regressor for a detection head. The decoding helper multiplies width by
height (mul saves both columns), then rescales the width column of the
model's output in place, so backward finds a saved tensor was modified.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

head = nn.Linear(10, 5)  # cx, cy, w, h, objectness


def box_loss(pred, target_area):
    area = pred[:, 2] * pred[:, 3]
    obj = torch.sigmoid(pred[:, 4])
    pred[:, 2] = pred[:, 2] * 0.5
    return ((area - target_area) ** 2 * obj).mean() + torch.abs(pred[:, 2]).mean()


feats = torch.randn(8, 10)
loss = box_loss(head(feats), torch.rand(8))
try:
    loss.backward()
    msg = ""
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg, msg
print("ok: backward raised")
