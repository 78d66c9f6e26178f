"""
expect: GL005 boxes.py:7
dynamic: confirm
source: https://github.com/JaryHuang/awesome_SSD_FPN_GIoU/issues/10

Users swapping SmoothL1 for the repo's GIoU loss hit "one of the variables
needed for gradient computation has been modified by an inplace operation",
patched around it, and then saw the GIoU loss stop converging. Here a box
head predicts (x1, y1, w, h); the loss helper takes the predicted area first
(the multiply saves the w/h columns) and then converts the boxes to corners
in place through `.data`, so no error is raised but backward reads x2/y2
where it saved w/h. Asserts: same forward loss as an out-of-place reference,
but different (wrong) gradients reaching the head.
"""
import torch
import torch.nn as nn

from boxes import giou_loss, giou_loss_reference

torch.manual_seed(0)
torch.set_num_threads(1)


class BoxHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 32), nn.ReLU())
        self.reg = nn.Linear(32, 4)

    def forward(self, feats):
        out = self.reg(self.body(feats))
        xy = out[:, :2]
        wh = nn.functional.softplus(out[:, 2:]) + 0.5
        return torch.cat([xy, wh], dim=1)


head = BoxHead()
feats = torch.randn(16, 8)
tgt_xy = torch.rand(16, 2)
target = torch.cat([tgt_xy, tgt_xy + torch.rand(16, 2) + 0.5], dim=1)

head.zero_grad()
loss_bug = giou_loss(head(feats), target)
loss_bug.backward()
g_bug = head.reg.weight.grad.clone()

head.zero_grad()
loss_ref = giou_loss_reference(head(feats), target)
loss_ref.backward()
g_ref = head.reg.weight.grad.clone()

assert torch.allclose(loss_bug, loss_ref), (loss_bug, loss_ref)   # forward looks right
assert not torch.allclose(g_bug, g_ref, atol=1e-4), "gradients should differ"
print("ok: same loss", loss_bug.item(), "grad diff", float((g_bug - g_ref).abs().max()))
