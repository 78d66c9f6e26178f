"""
expect: none
dynamic: dismiss
source: kinds check 55, kind 3

Tiny single-object detector where the box head is trained by an ordinary
smooth-L1 term; a separate @torch.no_grad() module computes mean absolute box
error for the log only (.item()), never entering the loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class BoxMAE(nn.Module):
    @torch.no_grad()
    def forward(self, pred_boxes, gt_boxes):
        return (pred_boxes.sigmoid() - gt_boxes).abs().mean()


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
box_mae = BoxMAE()
opt = torch.optim.SGD(det.parameters(), lr=0.1)
x = torch.randn(32, 64)
labels = torch.randint(0, 5, (32,))
boxes = torch.rand(32, 4)
w0 = det.box_head.weight.clone()
for step in range(3):
    logits, pred = det(x)
    loss = F.cross_entropy(logits, labels) + 2.0 * F.smooth_l1_loss(pred.sigmoid(), boxes, beta=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"step {step} loss {loss.item():.4f} box_mae {box_mae(pred, boxes).item():.4f}")
assert det.box_head.weight.grad.abs().sum() > 0
assert not torch.equal(w0, det.box_head.weight)
print("ok: box head trains; MAE only logged")
