"""
expect: GL001 model.py:28
dynamic: confirm
source: none, invented

Robotics / grasp planning. GraspQualityNet scores candidate grasps from a point
cloud: a PointEncoder embeds the scene and a head scores (scene, grasp) pairs.
The scene embedding lives in `embed_scene`, which is decorated with
`@torch.no_grad()` because the planner calls it at run time; but the training
method `compute_loss` of the same class also goes through it, so the trainable
encoder runs unrecorded and the loss returned to the shared loop in
train_loop.py (which does the backward) never reaches the encoder: only the head
learns. The asserts show that after training the encoder's weights are
unchanged and its .grad is None while the head moved, and that the fixed
subclass (embedding recorded) updates the encoder as well.
"""
import copy

import torch

from model import GraspQualityNet, GraspQualityNetFixed
from train_loop import fit


def make_batches(n_batches=20, batch=16, n_pts=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    out = []
    for _ in range(n_batches):
        cloud = torch.randn(batch, n_pts, 3, generator=g)
        grasp = torch.randn(batch, 7, generator=g)
        success = (cloud[:, :, 0].mean(1) + grasp[:, 0] > 0).float()
        out.append((cloud, grasp, success))
    return out


def params_changed(before, after):
    return any(not torch.equal(a, b) for a, b in zip(before.parameters(), after.parameters()))


def main():
    torch.manual_seed(0)
    batches = make_batches()

    # buggy path (default)
    model = GraspQualityNet()
    start = copy.deepcopy(model)
    fit(model, batches)
    assert not params_changed(start.encoder, model.encoder), "encoder should be frozen by the bug"
    assert all(p.grad is None for p in model.encoder.parameters())
    assert params_changed(start.head, model.head)

    # fixed variant: the encoder trains too
    torch.manual_seed(0)
    fixed = GraspQualityNetFixed()
    start_fixed = copy.deepcopy(fixed)
    fit(fixed, batches)
    assert params_changed(start_fixed.encoder, fixed.encoder)
    assert all(p.grad is not None for p in fixed.encoder.parameters())
    print("k01 ok: encoder untouched under @torch.no_grad embed_scene; fixed variant trains it")


if __name__ == "__main__":
    main()
