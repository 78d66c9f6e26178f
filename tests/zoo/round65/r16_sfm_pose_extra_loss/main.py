"""
expect: GL005 trainer.py:21
dynamic: confirm
source: https://github.com/JiawangBian/SC-SfMLearner-Release/issues/57

Monocular depth estimation (self-supervised, SfM-Learner family). A user added
an extra loss on the PoseNet output to the training step and got "one of the
variables needed for gradient computation has been modified by an inplace
operation" on a `pose_pred` weight that was "at version 3; expected version 2",
which is the signature of an optimizer step that updated the weights between two
backward passes through the same forward. This reproduction has the same shape:
the photometric + smoothness loss is backpropagated with `retain_graph=True`, then
`optimizer.step()` updates DispNet and PoseNet in place, and then the extra pose
consistency loss is backpropagated through the old PoseNet graph, whose saved
weights were just modified. The program catches that error on the default path,
then runs the fixed step (all terms summed, one backward, one step) and checks
that the photometric loss falls.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn.functional as F

from sfm_models import DispNet, PoseNet
from trainer import train_step

torch.manual_seed(0)
torch.set_num_threads(1)


def make_frames(b=4, h=16, w=24):
    base = F.avg_pool2d(torch.rand(b, 3, h, w + 8), 3, 1, 1)
    tgt = base[..., 4:4 + w]
    ref = base[..., 6:6 + w]        # camera moved: everything shifts by 2 px
    return tgt, ref


tgt, ref = make_frames()

# --- default path: step between the two backwards
disp_net, pose_net = DispNet(), PoseNet()
opt = torch.optim.Adam(list(disp_net.parameters()) + list(pose_net.parameters()), lr=1e-2)
try:
    train_step(disp_net, pose_net, opt, tgt, ref)
    raise AssertionError("expected the second backward to fail")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

# --- fixed: one combined backward, then one step
torch.manual_seed(1)
disp_net, pose_net = DispNet(), PoseNet()
opt = torch.optim.Adam(list(disp_net.parameters()) + list(pose_net.parameters()), lr=1e-2)
photo = [train_step(disp_net, pose_net, opt, tgt, ref, separate_pose_update=False)[0] for _ in range(300)]
assert photo[-1] < 0.6 * photo[0], (photo[0], photo[-1])
print(f"photometric loss {photo[0]:.4f} -> {photo[-1]:.4f}")
