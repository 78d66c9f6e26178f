"""
expect: GL002 60
dynamic: confirm
source: https://github.com/maudzung/Complex-YOLOv4-Pytorch/issues/13

In a bird's-eye-view detector the GIoU box loss was computed with a polygon
library on CPU copies of the boxes (areas and the enclosing hull come back as
plain floats), so the box head never received a gradient from it. Here the
loss object pulls the boxes out with .cpu().numpy(), computes IoU and the
enclosing area in numpy, and rebuilds the term with torch.tensor(...,
requires_grad=True) so backward() runs. The asserts show the box head gets no
gradient and does not move, while a torch-only GIoU trains it.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class BEVHead(nn.Module):
    def __init__(self, in_dim=16, n_cls=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU())
        self.cls_head = nn.Linear(32, n_cls)
        self.box_head = nn.Linear(32, 4)  # cx, cy, w, h (axis aligned for the repro)

    def forward(self, x):
        f = self.backbone(x)
        box = self.box_head(f)
        cxcy = box[:, :2]
        wh = F.softplus(box[:, 2:]) + 0.1
        return self.cls_head(f), torch.cat([cxcy, wh], dim=1)


def _to_xyxy_np(b):
    return np.stack([b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2,
                     b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2], axis=1)


class GIoULoss:
    """Box loss in the spirit of the reported code: geometry done off-graph."""

    def __call__(self, pred, target):
        p = _to_xyxy_np(pred.detach().cpu().numpy())
        t = _to_xyxy_np(target.cpu().numpy())
        ix1 = np.maximum(p[:, 0], t[:, 0]); iy1 = np.maximum(p[:, 1], t[:, 1])
        ix2 = np.minimum(p[:, 2], t[:, 2]); iy2 = np.minimum(p[:, 3], t[:, 3])
        inter = np.clip(ix2 - ix1, 0, None) * np.clip(iy2 - iy1, 0, None)
        area_p = (p[:, 2] - p[:, 0]) * (p[:, 3] - p[:, 1])
        area_t = (t[:, 2] - t[:, 0]) * (t[:, 3] - t[:, 1])
        union = area_p + area_t - inter
        iou = inter / union
        hull = ((np.maximum(p[:, 2], t[:, 2]) - np.minimum(p[:, 0], t[:, 0])) *
                (np.maximum(p[:, 3], t[:, 3]) - np.minimum(p[:, 1], t[:, 1])))
        giou = iou - (hull - union) / (hull + 1e-16)
        # "element 0 of tensors does not require grad" went away with this:
        return torch.tensor(float((1.0 - giou).mean()), requires_grad=True)


def giou_loss_torch(pred, target):
    def xyxy(b):
        return torch.stack([b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2,
                            b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2], 1)
    p, t = xyxy(pred), xyxy(target)
    lt = torch.max(p[:, :2], t[:, :2]); rb = torch.min(p[:, 2:], t[:, 2:])
    inter = (rb - lt).clamp(min=0).prod(1)
    area_p = (p[:, 2:] - p[:, :2]).prod(1); area_t = (t[:, 2:] - t[:, :2]).prod(1)
    union = area_p + area_t - inter
    hull = (torch.max(p[:, 2:], t[:, 2:]) - torch.min(p[:, :2], t[:, :2])).prod(1)
    giou = inter / union - (hull - union) / (hull + 1e-16)
    return (1 - giou).mean()


def train(box_loss_fn, steps=60):
    torch.manual_seed(0)
    model = BEVHead()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    x = torch.randn(64, 16)
    cls_t = torch.randint(0, 3, (64,))
    box_t = torch.cat([torch.randn(64, 2), torch.rand(64, 2) + 0.5], 1)
    w0 = model.box_head.weight.detach().clone()
    first_grad = None
    losses = []
    for i in range(steps):
        logits, boxes = model(x)
        l_box = box_loss_fn(boxes, box_t)
        loss = F.cross_entropy(logits, cls_t) + 2.0 * l_box
        opt.zero_grad()
        loss.backward()
        if i == 0:
            g = model.box_head.weight.grad
            first_grad = None if g is None else g.abs().sum().item()
        opt.step()
        losses.append(giou_loss_torch(boxes.detach(), box_t).item())
    moved = (model.box_head.weight.detach() - w0).abs().max().item()
    return first_grad, moved, losses


if __name__ == "__main__":
    g_bug, moved_bug, l_bug = train(GIoULoss())
    g_fix, moved_fix, l_fix = train(giou_loss_torch)
    print("buggy: box-head grad", g_bug, "moved", moved_bug, "giou", l_bug[0], "->", l_bug[-1])
    print("fixed: box-head grad", g_fix, "moved", moved_fix, "giou", l_fix[0], "->", l_fix[-1])
    # the rebuilt scalar is a fresh leaf: the box head receives nothing from it
    assert g_bug is None or g_bug == 0.0
    assert moved_bug == 0.0
    assert abs(l_bug[-1] - l_bug[0]) < 0.01  # only drifts through the shared backbone
    # the torch-only loss trains the box head and lowers the GIoU loss
    assert g_fix is not None and g_fix > 0
    assert l_fix[-1] < l_fix[0] - 0.05
    print("OK")
