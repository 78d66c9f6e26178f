"""
expect: GL005 augment_trainer.py:60
dynamic: confirm
source: https://github.com/liruihui/PointAugment/issues/8

Point cloud classification with a learned augmentor (PointAugment). One training step
runs the augmentor and the classifier once, back-propagates the augmentor loss with
retain_graph=True, calls optimizer_a.step(), and then back-propagates the classifier loss
through the same forward pass. The classifier loss still depends on the augmented cloud,
so its backward walks into the augmentor, whose weights optimizer_a.step() has just
rewritten in place: autograd raises "modified by an inplace operation" (older releases
silently used the new weights). The asserts catch that error on the default step, then
run a fixed step (the classifier consumes the augmented cloud as detached data) for a few
iterations and check both networks change and the classifier loss drops.
"""
import torch

from augment_trainer import JointTrainer, PointAugmentor, TinyPointNet

torch.manual_seed(0)
torch.set_num_threads(1)


def make_batch(b=16, n=64):
    target = torch.randint(0, 2, (b,))
    pts = torch.randn(b, 3, n)
    pts = pts / pts.norm(dim=1, keepdim=True)          # sphere
    cube = torch.rand(b, 3, n) * 2 - 1                  # cube
    pts = torch.where(target.view(b, 1, 1).bool(), cube, pts)
    return pts, target, torch.randn(b, 8)


trainer = JointTrainer(TinyPointNet(), PointAugmentor())
pts, target, noise = make_batch()
try:
    trainer.step(pts, target, noise)
    raise AssertionError("expected the in-place error")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err
    print("buggy step raised:", str(err).splitlines()[0][:100])

torch.manual_seed(1)
clf, aug = TinyPointNet(), PointAugmentor()
trainer = JointTrainer(clf, aug)
w_c0 = clf.head[2].weight.detach().clone()
w_a0 = aug.point_mlp[2].weight.detach().clone()
losses = []
for it in range(60):
    pts, target, noise = make_batch()
    _, cls_l = trainer.step_fixed(pts, target, noise)
    losses.append(cls_l)
assert not torch.equal(w_c0, clf.head[2].weight)
assert not torch.equal(w_a0, aug.point_mlp[2].weight)
first, last = sum(losses[:5]) / 5, sum(losses[-5:]) / 5
print(f"fixed: classifier loss {first:.3f} -> {last:.3f}")
assert last < first
