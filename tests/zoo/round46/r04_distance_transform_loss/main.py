"""
expect: GL005 distance.py:31
dynamic: confirm
source: https://github.com/kornia/kornia/issues/1579

A small segmentation net trained with BCE plus a boundary-aware term: the MSE between the distance
transform of the predicted mask and that of the ground truth. The distance transform (a utility module)
grows the distance map iteratively: each step replicate-pads the running `boundary` map, convolves it,
then marks the newly reached pixels with `boundary[mask == 1] = ones[mask == 1]`. The replicate padding
saved `boundary` for its backward, so that in-place assignment makes the loss's backward fail with
"modified by an inplace operation", the ReplicationPad2D error of the report. The asserts show the
error, and that an out-of-place update (torch.where) trains: finite, non-zero gradients reach the
segmenter and the loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from distance import distance_transform


def make_segmenter():
    torch.manual_seed(2)
    return nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))


def boundary_loss(logits, gt, inplace_update):
    prob = torch.sigmoid(logits)
    dist_pred = distance_transform(prob, inplace_update=inplace_update)
    dist_gt = distance_transform(gt, inplace_update=False)
    return F.binary_cross_entropy_with_logits(logits, gt) + 0.05 * F.mse_loss(dist_pred, dist_gt)


torch.manual_seed(0)
torch.set_num_threads(1)
img = torch.randn(2, 1, 12, 12)
gt = torch.zeros(2, 1, 12, 12)
gt[:, :, 4:8, 3:9] = 1.0

net = make_segmenter()
try:
    boundary_loss(net(img), gt, inplace_update=True).backward()
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "the in-place boundary update should break the replicate-pad backward"

net = make_segmenter()
opt = torch.optim.Adam(net.parameters(), lr=1e-2)
losses = []
for _ in range(25):
    opt.zero_grad()
    loss = boundary_loss(net(img), gt, inplace_update=False)
    loss.backward()
    opt.step()
    losses.append(loss.item())
grad = net[0].weight.grad
assert torch.isfinite(grad).all() and grad.abs().sum() > 0
assert losses[-1] < losses[0]
print("in-place update raised; out-of-place loss %.3f -> %.3f" % (losses[0], losses[-1]))
