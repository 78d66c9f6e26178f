"""
expect: GL005 30
dynamic: confirm
source: https://github.com/Zzh-tju/DIoU-SSD-pytorch/issues/15

The report: with the DIoU loss of DIoU-SSD the gradient could not be propagated back and users got
"one of the variables needed for gradient computation has been modified by an inplace operation".
This program rebuilds a box-regression loss of that family (IoU plus enclosing-box and centre-distance
penalties) in which a zero-area guard, union.clamp_(min=eps), was added after iou = inter / union had
already saved union for backward. The asserts catch the RuntimeError mentioning the in-place change,
and show that guarding before the division (out of place) lets the box head train.
"""
import torch
import torch.nn as nn


def diou_loss(pred, gt, guard_first, eps=1e-7):
    x1 = torch.max(pred[:, 0], gt[:, 0])
    y1 = torch.max(pred[:, 1], gt[:, 1])
    x2 = torch.min(pred[:, 2], gt[:, 2])
    y2 = torch.min(pred[:, 3], gt[:, 3])
    inter = (x2 - x1).clamp(min=0) * (y2 - y1).clamp(min=0)
    area_p = (pred[:, 2] - pred[:, 0]) * (pred[:, 3] - pred[:, 1])
    area_g = (gt[:, 2] - gt[:, 0]) * (gt[:, 3] - gt[:, 1])
    union = area_p + area_g - inter
    if guard_first:
        union = union.clamp(min=eps)
    iou = inter / union
    if not guard_first:
        union.clamp_(min=eps)
    cw = torch.max(pred[:, 2], gt[:, 2]) - torch.min(pred[:, 0], gt[:, 0])
    ch = torch.max(pred[:, 3], gt[:, 3]) - torch.min(pred[:, 1], gt[:, 1])
    c2 = cw ** 2 + ch ** 2 + eps
    rho2 = ((pred[:, 0] + pred[:, 2] - gt[:, 0] - gt[:, 2]) ** 2 + (pred[:, 1] + pred[:, 3] - gt[:, 1] - gt[:, 3]) ** 2) / 4
    return (1 - iou + rho2 / c2).mean()


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)

    def forward(self, feats, anchors):
        d = self.fc(feats)
        ctr = (anchors[:, :2] + anchors[:, 2:]) / 2 + d[:, :2]
        wh = (anchors[:, 2:] - anchors[:, :2]) * torch.exp(d[:, 2:])
        return torch.cat([ctr - wh / 2, ctr + wh / 2], dim=1)


torch.manual_seed(0)
head = BoxHead()
feats = torch.randn(6, 8)
anchors = torch.tensor([[0.0, 0.0, 2.0, 2.0]]).repeat(6, 1)
gt = anchors + torch.randn(6, 4) * 0.3

try:
    diou_loss(head(feats, anchors), gt, guard_first=False).backward()
    raise SystemExit("expected the in-place version error")
except RuntimeError as err:
    assert "inplace" in str(err), err
    print("caught:", str(err).split(":")[0])

head.zero_grad()
opt = torch.optim.SGD(head.parameters(), lr=0.1)
w0 = head.fc.weight.detach().clone()
diou_loss(head(feats, anchors), gt, guard_first=True).backward()
opt.step()
assert not torch.equal(w0, head.fc.weight)
print("ok: clamping union in place after the IoU division broke backward")
