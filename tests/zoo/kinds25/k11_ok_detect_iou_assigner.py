"""
expect: none
dynamic: dismiss
source: kinds check 25, kind 3

IoU-aware detection head (VarifocalNet style). The top model owns `self.assigner =
IoUTargetAssigner()`, a submodule that computes the IoU between the predicted boxes and the
ground truth and returns it detached as the soft target for the quality branch. The caller
compares the attached quality logits with that target and regresses the attached boxes onto
the ground truth, so every head trains; detaching the target is the intended design.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class IoUTargetAssigner(nn.Module):
    def forward(self, pred_boxes, gt_boxes):
        lt = torch.max(pred_boxes[:, :2], gt_boxes[:, :2])
        rb = torch.min(pred_boxes[:, 2:], gt_boxes[:, 2:])
        inter = (rb - lt).clamp(min=0).prod(-1)
        area_p = (pred_boxes[:, 2:] - pred_boxes[:, :2]).clamp(min=0).prod(-1)
        area_g = (gt_boxes[:, 2:] - gt_boxes[:, :2]).prod(-1)
        iou = inter / (area_p + area_g - inter + 1e-6)
        return iou.detach()


class IoUAwareHead(nn.Module):
    def __init__(self, c=16):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(c, 32), nn.ReLU())
        self.box = nn.Linear(32, 4)
        self.quality = nn.Linear(32, 1)
        self.assigner = IoUTargetAssigner()

    def forward(self, feats, anchors):
        h = self.trunk(feats)
        boxes = anchors + self.box(h)
        return boxes, self.quality(h).squeeze(-1)


model = IoUAwareHead()
opt = torch.optim.Adam(model.parameters(), lr=5e-3)
feats = torch.randn(96, 16)
xy = torch.rand(96, 2) * 10
anchors = torch.cat([xy, xy + 2.0], dim=1)
gt = anchors + torch.randn(96, 4) * 0.3

losses = []
for step in range(60):
    boxes, q_logits = model(feats, anchors)
    iou_target = model.assigner(boxes, gt)
    loss = F.binary_cross_entropy_with_logits(q_logits, iou_target) + F.l1_loss(boxes, gt)
    opt.zero_grad()
    loss.backward()
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
    losses.append(loss.item())

assert losses[-1] < losses[0], (losses[0], losses[-1])
print("ok: loss", round(losses[0], 3), "->", round(losses[-1], 3))
