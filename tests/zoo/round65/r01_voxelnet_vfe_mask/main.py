"""
expect: GL005 voxelnet.py:61
dynamic: confirm
source: https://github.com/dd-iuonac/object-detector-in-carla/issues/61

3-D object detection from LiDAR (VoxelNet / SECOND voxel feature encoder). The
VoxelFeatureExtractor zeroes the padded point slots of every voxel with `x *= mask`.
The first two masks hit the output of torch.cat, which no backward node keeps, so they
are harmless; the last one edits the output of F.relu in place, and ReluBackward keeps
that output to compute its gradient. The first training step therefore dies with
"one of the variables needed for gradient computation has been modified by an inplace
operation ... output 0 of Relu". The asserts catch that error on the default
(buggy) path, then show that the out-of-place `x = x * mask` variant back-propagates
into the first VFE layer and lowers the objectness loss.
"""
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from voxelnet import TinyVoxelHead  # noqa: E402

torch.manual_seed(0)
torch.set_num_threads(1)


def make_voxels(num_voxels=64, max_points=12):
    counts = torch.randint(1, max_points + 1, (num_voxels,))
    feats = torch.randn(num_voxels, max_points, 4)
    pad = torch.arange(max_points)[None, :] >= counts[:, None]
    feats[pad] = 0.0
    # label: voxels whose mean height (z) is positive are "object" voxels
    z_mean = feats[:, :, 2].sum(1) / counts
    labels = (z_mean > 0).float()
    return feats, counts, labels


def train_step(model, opt, feats, counts, labels):
    opt.zero_grad()
    logits = model(feats, counts)
    loss = F.binary_cross_entropy_with_logits(logits, labels)
    loss.backward()
    opt.step()
    return loss.item()


feats, counts, labels = make_voxels()

# default configuration: in-place masking of the ReLU output
model = TinyVoxelHead()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
err = None
try:
    train_step(model, opt, feats, counts, labels)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err
assert "Relu" in err, err
assert model.vfe.vfe1.linear.weight.grad is None

# fixed variant: out-of-place masking
torch.manual_seed(0)
fixed = TinyVoxelHead(mask_out_of_place=True)
opt = torch.optim.Adam(fixed.parameters(), lr=1e-2)
losses = [train_step(fixed, opt, feats, counts, labels) for _ in range(60)]
g = fixed.vfe.vfe1.linear.weight.grad
assert g is not None and g.abs().sum() > 0
assert losses[-1] < 0.7 * losses[0], (losses[0], losses[-1])
print("buggy: inplace error caught; fixed: loss %.3f -> %.3f" % (losses[0], losses[-1]))
