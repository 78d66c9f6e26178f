"""
expect: GL002 35
dynamic: confirm
source: kinds check 29, kind 5

A detection loss written as an old-style `class DetLoss(object)` adds an
IoU penalty to the classification cross-entropy, but the per-box IoUs are
pulled out with .item() and repacked by torch.tensor(), so the penalty is
a constant: the box regressor never receives a gradient from it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def box_iou(a, b):
    lt = torch.maximum(a[:2], b[:2])
    rb = torch.minimum(a[2:], b[2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[0] * wh[1]
    area_a = (a[2] - a[0]).clamp(min=0) * (a[3] - a[1]).clamp(min=0)
    area_b = (b[2] - b[0]).clamp(min=0) * (b[3] - b[1]).clamp(min=0)
    return inter / (area_a + area_b - inter + 1e-6)


class DetLoss(object):
    def __init__(self, w_iou=1.0):
        self.w_iou = w_iou

    def __call__(self, logits, labels, pred_boxes, gt_boxes):
        cls = F.cross_entropy(logits, labels)
        penalties = []
        for i in range(pred_boxes.shape[0]):
            penalties.append(1.0 - box_iou(pred_boxes[i], gt_boxes[i]).item())
        iou_term = torch.tensor(penalties).mean()
        return cls + self.w_iou * iou_term


class TinyDetector(nn.Module):
    def __init__(self, d, n_cls):
        super().__init__()
        self.backbone = nn.Linear(d, 32)
        self.cls = nn.Linear(32, n_cls)
        self.box = nn.Linear(32, 4)

    def forward(self, x):
        h = torch.relu(self.backbone(x))
        xy = torch.sigmoid(self.box(h))
        boxes = torch.cat([xy[:, :2] * 0.5, 0.5 + xy[:, 2:] * 0.5], dim=1)
        return self.cls(h), boxes


def grads(w_iou):
    torch.manual_seed(0)
    det = TinyDetector(10, 3)
    x = torch.randn(6, 10)
    labels = torch.tensor([0, 1, 2, 0, 1, 2])
    gt = torch.tensor([[0.1, 0.1, 0.6, 0.7]]).repeat(6, 1)
    logits, boxes = det(x)
    loss = DetLoss(w_iou)(logits, labels, boxes, gt)
    loss.backward()
    return det, loss.item()


det_on, loss_on = grads(1.0)
det_off, loss_off = grads(0.0)
assert loss_on > loss_off, "the IoU penalty is nonzero in value"
for (n, p_on), (_, p_off) in zip(det_on.named_parameters(), det_off.named_parameters()):
    g_on = p_on.grad if p_on.grad is not None else torch.zeros_like(p_on)
    g_off = p_off.grad if p_off.grad is not None else torch.zeros_like(p_off)
    assert torch.equal(g_on, g_off), n
assert det_on.box.weight.grad is None
print("ok", loss_on, loss_off)
