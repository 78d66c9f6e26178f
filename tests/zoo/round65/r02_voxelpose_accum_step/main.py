"""
expect: GL005 function.py:20
dynamic: confirm
source: https://github.com/microsoft/voxelpose-pytorch/issues/19

Multi-person 3-D human pose estimation (VoxelPose). The trainer steps the optimizer for
the pose-regression loss every iteration, but keeps adding the proposal-net loss of each
iteration into `accu_loss_3d` and only calls backward on it every fourth iteration. The
accumulated sum still holds the graphs of the earlier forwards, whose convolution
weights were saved for backward; the `optimizer.step()` that follows the pose-loss
backward has meanwhile updated those weights in place, so `accu_loss_3d.backward()`
fails with "modified by an inplace operation ... is at version N; expected version M"
(the report shows a [1, 32, 1, 1, 1] parameter of the 3-D network). The asserts catch
that error on the default loop and show that a loop doing one backward over all terms
per step trains both heads.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from multi_person_posenet import MultiPersonPoseNet  # noqa: E402
from function import train_3d, train_3d_joint  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)

J, C = 5, 8


def make_loader(n_batches=8, batch=2):
    torch.manual_seed(1)
    data = []
    for _ in range(n_batches):
        joints = torch.rand(batch, J, 3) * 1.6 - 0.8
        # input "heatmap volumes": a bump at every joint position
        grid = torch.linspace(-1, 1, C)
        gz, gy, gx = torch.meshgrid(grid, grid, grid, indexing="ij")
        coords = torch.stack([gx, gy, gz], -1)  # C,C,C,3
        d = ((coords[None, None] - joints[:, :, None, None, None]) ** 2).sum(-1)
        vol = torch.exp(-d / 0.05)  # b,J,C,C,C
        root_target = vol.max(dim=1, keepdim=True)[0]
        data.append((vol, joints, root_target, joints))
    return data


loader = make_loader()

model = MultiPersonPoseNet(J, C)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
err = None
try:
    train_3d(model, opt, loader)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

torch.manual_seed(0)
fixed = MultiPersonPoseNet(J, C)
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
first = train_3d_joint(fixed, opt, loader)
for _ in range(6):
    last = train_3d_joint(fixed, opt, loader)
l3_0 = sum(a for a, _ in first) / len(first)
l3_1 = sum(a for a, _ in last) / len(last)
lc_0 = sum(b for _, b in first) / len(first)
lc_1 = sum(b for _, b in last) / len(last)
assert fixed.root_head.weight.grad is not None and fixed.root_head.weight.grad.abs().sum() > 0
assert l3_1 < l3_0 and lc_1 < lc_0, (l3_0, l3_1, lc_0, lc_1)
print("buggy: %s..." % err[:60])
print("fixed: loss_3d %.4f -> %.4f, loss_cord %.4f -> %.4f" % (l3_0, l3_1, lc_0, lc_1))
