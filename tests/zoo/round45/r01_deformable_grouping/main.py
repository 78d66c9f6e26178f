"""expect: GL001 deform_sa.py:34
dynamic: confirm
source: https://github.com/AutoVision-cloud/Deformable-PV-RCNN/issues/8

A deformable set-abstraction layer predicts an offset for every query centre (pred_offset), moves
the centres, and then groups the neighbourhood of the moved centres. As in the linked issue, the
grouping of the moved centres runs inside torch.no_grad() because "query and group does not need
gradients"; but the relative coordinates it builds are the only path from the offsets to the loss, so
the offset predictor is cut out of the graph: after backward its weights have no gradient and the
optimizer never moves them, while the feature MLP trains. The asserts show pred_offset.weight.grad is
None and unchanged after steps in the trainer, and that the same layer with the grouping left in the
graph gives the offset predictor a non-zero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from deform_sa import DeformableSA, knn_group


class SegHead(nn.Module):
    def __init__(self, sa, n_cls=4):
        super().__init__()
        self.sa = sa
        self.cls = nn.Linear(16, n_cls)

    def forward(self, xyz, feats, centers):
        return self.cls(self.sa(xyz, feats, centers))


class GradGroupingSA(DeformableSA):
    """Same layer with the grouping kept in the autograd graph."""

    def forward(self, xyz, feats, centers):
        moved = self.learn_offset(xyz, feats, centers)
        grouped = knn_group(xyz, moved, feats, self.k)
        return self.mlp(grouped).max(dim=2).values


def make_batch(B=4, N=64, M=16, C=4):
    xyz = torch.randn(B, N, 3)
    feats = torch.randn(B, N, C)
    centers = xyz[:, :M].clone()
    labels = torch.randint(0, 4, (B, M))
    return xyz, feats, centers, labels


def train(model, steps=5):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    w0 = model.sa.pred_offset[0].weight.detach().clone()
    grad_seen = False
    for _ in range(steps):
        xyz, feats, centers, labels = make_batch()
        logits = model(xyz, feats, centers)
        loss = F.cross_entropy(logits.reshape(-1, 4), labels.reshape(-1))
        opt.zero_grad()
        loss.backward()
        g = model.sa.pred_offset[0].weight.grad
        grad_seen = grad_seen or (g is not None and g.abs().sum().item() > 0)
        opt.step()
    moved = (model.sa.pred_offset[0].weight - w0).abs().max().item()
    return grad_seen, moved, model.sa.mlp[0].weight.grad


torch.manual_seed(0)
torch.set_num_threads(1)

buggy = SegHead(DeformableSA(4, 16))
grad_seen, moved, mlp_grad = train(buggy)
assert not grad_seen, "offset predictor unexpectedly received a gradient"
assert buggy.sa.pred_offset[0].weight.grad is None
assert moved == 0.0
assert mlp_grad is not None and mlp_grad.abs().sum() > 0   # the rest of the layer trains

torch.manual_seed(0)
fixed = SegHead(GradGroupingSA(4, 16))
grad_seen_f, moved_f, _ = train(fixed)
assert grad_seen_f and moved_f > 0

print("offset predictor trained with no_grad grouping:", grad_seen, "| with grad grouping:", grad_seen_f)
