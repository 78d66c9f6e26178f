"""
expect: GL002 box_ops.py:24
dynamic: confirm
source: https://github.com/lilanxiao/Rotated_IoU/issues/16

In a thread on a rotated-box IoU loss (a minimum-enclosing-box helper for a
GIoU-style term), the maintainer points out that building a new tensor by
passing tensor elements to torch.FloatTensor([...]).requires_grad_() drops
the gradient. The helper below does that for the enclosing-box extent, so
the enclosing-area penalty trains nothing through the box corners: only the
predicted w*h term reaches the head. The asserts compare against the same
penalty built with torch.stack, which does propagate through the corners.
"""
import torch
import torch.nn as nn

from box_ops import box_corners, enclosing_penalty

torch.manual_seed(0)
torch.set_num_threads(1)


class RotatedHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(16, 5)

    def forward(self, feats):
        out = self.fc(feats)
        cx, cy = out[:, 0], out[:, 1]
        w, h = nn.functional.softplus(out[:, 2]) + 0.5, nn.functional.softplus(out[:, 3]) + 0.5
        return torch.stack([cx, cy, w, h, out[:, 4]], dim=-1)


def enclosing_penalty_ok(pred, target):
    pts = torch.cat([box_corners(pred), box_corners(target)], dim=1)
    w = pts[..., 0].amax(1) - pts[..., 0].amin(1)
    h = pts[..., 1].amax(1) - pts[..., 1].amin(1)
    area_enc = w * h
    return ((area_enc - pred[:, 2] * pred[:, 3]) / area_enc).mean()


head = RotatedHead()
feats = torch.randn(6, 16)
target = torch.tensor([[0.5, -0.2, 2.0, 1.0, 0.3]]).repeat(6, 1)

bug = enclosing_penalty(head(feats), target)
ok = enclosing_penalty_ok(head(feats), target)
assert torch.allclose(bug, ok, atol=1e-5)  # same value ...

g_bug = torch.autograd.grad(bug, head.fc.weight, allow_unused=True)[0]
g_ok = torch.autograd.grad(ok, head.fc.weight)[0]
# ... but the centre (cx, cy) and angle rows only move via the enclosing box,
# and the rebuilt tensor cut that path
assert g_bug[[0, 1, 4]].abs().sum() == 0
assert g_ok[[0, 1, 4]].abs().sum() > 0
assert not torch.allclose(g_bug, g_ok)
print("ok")
