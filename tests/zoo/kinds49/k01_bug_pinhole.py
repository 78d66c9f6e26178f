"""
expect: GL005 21
dynamic: confirm
source: kinds check 49, kind 1

A small point-regression head predicts camera-space 3D points and projects
them to the image plane by dividing x,y by depth in place on the same tensor
(`cam[..., :2] /= cam[..., 2:3]`). The divisor is a view of the tensor being
modified, so backward raises "modified by an inplace operation".
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
head = nn.Linear(16, 3)
feats = torch.randn(32, 16)
target_uv = torch.randn(32, 2)


def project(cam):
    cam[..., :2] /= cam[..., 2:3]
    return cam[..., :2]


uv = project(head(feats) + torch.tensor([0.0, 0.0, 3.0]))
loss = ((uv - target_uv) ** 2).mean()
try:
    loss.backward()
    raise SystemExit("expected in-place RuntimeError")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e
print("ok: backward raised as expected")
