"""expect: none
dynamic: dismiss
source: https://github.com/yhenon/pytorch-retinanet/blob/master/retinanet/losses.py

A RetinaNet-style detection head is trained with the focal loss from losses.py. The loss builds its target
tensor with in-place masked writes (`targets[positive, :] = 0` and friends) on a fresh tensor that no
recorded op has saved, and for an image without any box, or without a positive anchor, it appends
`torch.tensor(0).float()` as the regression loss: a constant placeholder, not a number taken out of the
graph, so nothing that should train is cut off. The asserts check that the classification and box heads
both get non-zero gradients, that the empty image contributes only a classification gradient, and that
training lowers both losses.
"""
import torch
import torch.nn as nn

from losses import FocalLoss

torch.manual_seed(0)
torch.set_num_threads(1)

NUM_CLASSES, FEAT, GRID = 3, 8, 6


def make_anchors(grid=GRID, stride=8, size=12):
    ys, xs = torch.meshgrid(torch.arange(grid), torch.arange(grid), indexing="ij")
    cx = (xs.flatten().float() + 0.5) * stride
    cy = (ys.flatten().float() + 0.5) * stride
    return torch.stack([cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2], 1)


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.cls = nn.Conv2d(FEAT, NUM_CLASSES, 3, padding=1)
        self.box = nn.Conv2d(FEAT, 4, 3, padding=1)
        nn.init.constant_(self.cls.bias, -2.0)

    def forward(self, fmap):
        b = fmap.shape[0]
        cls = torch.sigmoid(self.cls(fmap)).permute(0, 2, 3, 1).reshape(b, -1, NUM_CLASSES)
        box = self.box(fmap).permute(0, 2, 3, 1).reshape(b, -1, 4)
        return cls, box


anchors = make_anchors()
fmap = torch.randn(3, FEAT, GRID, GRID)
annotations = torch.full((3, 2, 5), -1.0)
annotations[0, 0] = torch.tensor([5.0, 6.0, 17.0, 19.0, 1.0])
annotations[0, 1] = torch.tensor([21.0, 15.0, 33.0, 27.0, 2.0])
annotations[1, 0] = torch.tensor([31.0, -1.0, 42.0, 11.0, 0.0])
# image 2 has no boxes at all

head = Head()
criterion = FocalLoss()

cls_out, box_out = head(fmap)
cls_loss, reg_loss = criterion(cls_out, box_out, anchors, annotations)
g_cls, g_box = torch.autograd.grad(cls_loss + reg_loss, [head.cls.weight, head.box.weight])
assert g_cls.abs().sum() > 0 and g_box.abs().sum() > 0

cls_e, box_e = head(fmap[2:])
cls_loss_e, reg_loss_e = criterion(cls_e, box_e, anchors, annotations[2:])
assert reg_loss_e.item() == 0.0 and not reg_loss_e.requires_grad
assert torch.autograd.grad(cls_loss_e, head.cls.weight)[0].abs().sum() > 0

opt = torch.optim.Adam(head.parameters(), lr=0.01)
first = last = None
for step in range(80):
    cls_out, box_out = head(fmap)
    cls_loss, reg_loss = criterion(cls_out, box_out, anchors, annotations)
    loss = cls_loss + reg_loss
    opt.zero_grad()
    loss.backward()
    opt.step()
    if first is None:
        first = (cls_loss.item(), reg_loss.item())
    last = (cls_loss.item(), reg_loss.item())
assert last[0] < 0.5 * first[0] and last[1] < 0.5 * first[1], (first, last)
print("focal %.3f -> %.3f, box %.3f -> %.3f" % (first[0], last[0], first[1], last[1]))
