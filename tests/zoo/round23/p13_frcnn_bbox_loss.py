"""
expect: GL001 33
expect: GL001 41
dynamic: confirm
source: https://github.com/rimchang/Faster-RCNN-Pytorch-Simple/issues/2

In this Faster R-CNN re-implementation both box-regression losses masked the predictions
with `to_var(torch.mul(bbox_pred.data, bbox_inside_weights))`: the prediction is unpacked
with `.data`, multiplied by the inside weights and wrapped again, so backward stops there
("If you visualize the graph you will see it"). The classification losses still train the
shared features, so the detector seems to learn, but neither box-regression layer ever gets
a gradient. The asserts show both regression layers keep a None gradient and unchanged
weights while the classifiers move, and masking the tracked prediction trains them.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.set_num_threads(1)
torch.manual_seed(0)


def to_var(x, *args, **kwargs):
    if isinstance(x, np.ndarray):
        x = torch.from_numpy(x)
    return Variable(x, *args, **kwargs)


def rpn_loss(rpn_cls_prob, rpn_bbox_pred, labels, bbox_targets, inside_w):
    cls_loss = F.cross_entropy(rpn_cls_prob, labels)
    rpn_bbox_pred = to_var(torch.mul(rpn_bbox_pred.data, inside_w))
    rpn_bbox_targets = to_var(torch.mul(bbox_targets, inside_w))
    box_loss = F.smooth_l1_loss(rpn_bbox_pred, rpn_bbox_targets, reduction="sum") / labels.numel()
    return cls_loss + 10.0 * box_loss


def frcnn_loss(cls_score, frcnn_bbox_pred, labels, bbox_targets, inside_w):
    cls_loss = F.cross_entropy(cls_score, labels)
    frcnn_bbox_pred = to_var(torch.mul(frcnn_bbox_pred.data, inside_w))
    frcnn_bbox_targets = to_var(torch.mul(bbox_targets, inside_w))
    box_loss = F.smooth_l1_loss(frcnn_bbox_pred, frcnn_bbox_targets, reduction="sum") / labels.numel()
    return cls_loss + box_loss


class TinyFasterRCNN(nn.Module):
    def __init__(self, feat=16, n_cls=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(12, feat), nn.ReLU())
        self.rpn_cls = nn.Linear(feat, 2)
        self.rpn_bbox = nn.Linear(feat, 4)
        self.head_cls = nn.Linear(feat, n_cls)
        self.head_bbox = nn.Linear(feat, 4 * n_cls)

    def forward(self, x):
        f = self.backbone(x)
        return self.rpn_cls(f), self.rpn_bbox(f), self.head_cls(f), self.head_bbox(f)


def sample(n=32):
    x = torch.randn(n, 12)
    rpn_labels, cls_labels = (x[:, 0] > 0).long(), (x[:, 1] > 0).long() + (x[:, 2] > 0).long()
    rpn_targets, roi_targets = x[:, 3:7] * 0.5, x[:, :12] * 0.3
    w_rpn = rpn_labels.float().unsqueeze(1).expand(-1, 4)
    w_roi = torch.zeros(n, 12)
    for i, c in enumerate(cls_labels.tolist()):
        w_roi[i, 4 * c:4 * c + 4] = 1.0
    return x, rpn_labels, cls_labels, rpn_targets, roi_targets, w_rpn, w_roi


model = TinyFasterRCNN()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
rpn_box0, head_box0 = model.rpn_bbox.weight.detach().clone(), model.head_bbox.weight.detach().clone()
cls0 = model.head_cls.weight.detach().clone()
for _ in range(30):
    x, rl, cl, rt, ot, wr, wo = sample()
    rc, rb, hc, hb = model(x)
    loss = rpn_loss(rc, rb, rl, rt, wr) + frcnn_loss(hc, hb, cl, ot, wo)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert model.rpn_bbox.weight.grad is None and model.head_bbox.weight.grad is None
assert torch.equal(rpn_box0, model.rpn_bbox.weight) and torch.equal(head_box0, model.head_bbox.weight)
assert not torch.equal(cls0, model.head_cls.weight), "classification branch trains normally"


def masked_box_loss(pred, targets, inside_w, n):
    return F.smooth_l1_loss(pred * inside_w, targets * inside_w, reduction="sum") / n


fixed = TinyFasterRCNN()
x, rl, cl, rt, ot, wr, wo = sample()
rc, rb, hc, hb = fixed(x)
(masked_box_loss(rb, rt, wr, 32) + masked_box_loss(hb, ot, wo, 32)).backward()
assert fixed.rpn_bbox.weight.grad.abs().sum() > 0 and fixed.head_bbox.weight.grad.abs().sum() > 0
print("p13 ok: .data-masked box predictions never train the regressors")
