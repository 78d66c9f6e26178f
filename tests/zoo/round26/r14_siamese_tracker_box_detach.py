"""
expect: none
dynamic: dismiss
source: https://github.com/VISION-SJTU/USOT/issues/1

USOT (unsupervised Siamese tracking) detaches the predicted boxes before Precise-RoI
pooling in its cycle-memory branch; a user asked whether that throws away the point of
differentiable pooling. The authors answered it is deliberate: the box regressor is
trained densely by its own loss, and the cycle loss should train the features, not
push gradient through the single arg-max box. Here a small Siamese tracker pools
search features at the detached predicted box (bilinear grid_sample) for a cycle
consistency loss; the asserts show the cycle loss trains the backbone but not the box
head, the regression loss trains the box head, and the combined loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class SiameseTracker(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(),
                                      nn.Conv2d(16, 16, 3, padding=1))
        self.box_head = nn.Conv2d(1, 4, 1)

    def forward(self, template, search):
        zf = self.backbone(template)                      # [B,16,4,4]
        xf = self.backbone(search)                        # [B,16,16,16]
        kernel = zf.mean(dim=(2, 3), keepdim=True)
        score = (xf * kernel).sum(1, keepdim=True)        # [B,1,16,16]
        boxes = torch.sigmoid(self.box_head(score))       # [B,4,16,16] (cx, cy, w, h)
        return zf, xf, score, boxes

    def pool(self, xf, box, size=4):
        cx, cy, w, h = box.unbind(-1)
        lin = torch.linspace(-0.5, 0.5, size)
        gx = (cx[:, None] + lin[None] * w[:, None]) * 2 - 1
        gy = (cy[:, None] + lin[None] * h[:, None]) * 2 - 1
        grid = torch.stack(torch.broadcast_tensors(gx[:, None, :], gy[:, :, None]), -1)
        return F.grid_sample(xf, grid, align_corners=False)


def losses(model, template, search, gt_box):
    zf, xf, score, boxes = model(template, search)
    B = score.shape[0]
    best = score.view(B, -1).argmax(-1)
    pred_box = boxes.view(B, 4, -1)[torch.arange(B), :, best]
    reg_loss = F.l1_loss(boxes, gt_box[:, :, None, None].expand_as(boxes))
    roi = model.pool(xf, pred_box.detach())
    cycle_loss = F.mse_loss(roi, zf)
    return reg_loss, cycle_loss


model = SiameseTracker()
template, search = torch.rand(4, 3, 4, 4), torch.rand(4, 3, 16, 16)
gt_box = torch.tensor([[0.5, 0.5, 0.3, 0.3]]).repeat(4, 1)

reg_loss, cycle_loss = losses(model, template, search, gt_box)
g_cycle_bb = torch.autograd.grad(cycle_loss, model.backbone[0].weight, retain_graph=True)[0]
g_cycle_head = torch.autograd.grad(cycle_loss, model.box_head.weight, allow_unused=True)[0]
g_reg_head = torch.autograd.grad(reg_loss, model.box_head.weight)[0]
assert g_cycle_head is None                        # by design: no gradient via the argmax box
assert g_cycle_bb.abs().sum() > 0 and g_reg_head.abs().sum() > 0

opt = torch.optim.Adam(model.parameters(), lr=3e-3)
first = sum(losses(model, template, search, gt_box)).item()
for _ in range(40):
    opt.zero_grad()
    sum(losses(model, template, search, gt_box)).backward()
    opt.step()
assert sum(losses(model, template, search, gt_box)).item() < first
print("ok: detached box only stops cycle gradient into the box head; tracker trains")
