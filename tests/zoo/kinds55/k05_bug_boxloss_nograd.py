"""
expect: GL001 21
dynamic: confirm
source: kinds check 55, kind 3

Tiny single-object detector: a shared trunk, a class head and a box head. The
box regression loss is a module whose forward is decorated @torch.no_grad();
it is added to the cross-entropy (which keeps the graph, so backward runs),
but the box head, reached only through that term, never gets a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GIoUishBoxLoss(nn.Module):
    def __init__(self, beta=0.1):
        super().__init__()
        self.beta = beta

    @torch.no_grad()
    def forward(self, pred_boxes, gt_boxes):
        return F.smooth_l1_loss(pred_boxes.sigmoid(), gt_boxes, beta=self.beta)


class Detector(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(64, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, 5)
        self.box_head = nn.Linear(32, 4)

    def forward(self, x):
        h = self.trunk(x)
        return self.cls_head(h), self.box_head(h)


torch.manual_seed(0)
det = Detector()
box_crit = GIoUishBoxLoss()
opt = torch.optim.SGD(det.parameters(), lr=0.1)
x = torch.randn(32, 64)
labels = torch.randint(0, 5, (32,))
boxes = torch.rand(32, 4)
w0 = det.box_head.weight.clone()
for _ in range(3):
    logits, pred = det(x)
    loss = F.cross_entropy(logits, labels) + 2.0 * box_crit(pred, boxes)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert det.box_head.weight.grad is None
assert torch.equal(w0, det.box_head.weight)
# the intended (undecorated) loss reaches the box head
logits, pred = det(x)
F.smooth_l1_loss(pred.sigmoid(), boxes, beta=0.1).backward()
assert det.box_head.weight.grad.abs().sum() > 0
print("ok: box head never trained")
