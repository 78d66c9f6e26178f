"""
expect: none
dynamic: dismiss
source: https://github.com/supernotman/RetinaFace_Pytorch/issues/6

RetinaFace issue: training crashed at epoch 104 with "element 0 of tensors does not require
grad" on a batch in which no image had a face. The repo's LossLayer appends torch.tensor(0.)
placeholders for images with no annotations (and for images with no positive anchors) and
torch.stack()s them with the real per-image losses. Those constants never came out of the
model, so nothing is cut: whenever any image in the batch has faces, the stacked mean still
trains the heads through the real entries. The asserts show the heads get gradient from a
mixed batch, that the placeholder rows contribute nothing, and the loss equals the mean over
the real rows scaled by their share of the batch.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyDetector(nn.Module):
    def __init__(self, anchors=16, feat=10):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(feat, 32), nn.ReLU())
        self.cls = nn.Linear(32, anchors * 2)
        self.box = nn.Linear(32, anchors * 4)
        self.anchors = anchors

    def forward(self, x):
        h = self.backbone(x)
        return (F.log_softmax(self.cls(h).view(-1, self.anchors, 2), -1),
                self.box(h).view(-1, self.anchors, 4))


class LossLayer(nn.Module):
    def forward(self, log_cls, box_reg, pos_masks, box_targets):
        cls_losses, box_losses = [], []
        for j in range(log_cls.shape[0]):
            pos = pos_masks[j]
            if pos is None:                               # image without annotations
                cls_losses.append(torch.tensor(0.0))
                box_losses.append(torch.tensor(0.0))
                continue
            neg = ~pos
            cls_losses.append(-log_cls[j, pos, 0].mean() - log_cls[j, neg, 1].mean())
            box_losses.append(F.smooth_l1_loss(box_reg[j, pos], box_targets[j][pos]))
        return torch.stack(cls_losses), torch.stack(box_losses)


model, crit = TinyDetector(), LossLayer()
x = torch.randn(4, 10)
pos_masks = [torch.rand(16) > 0.7, None, torch.rand(16) > 0.7, None]
for m in pos_masks:
    if m is not None:
        m[0] = True
box_targets = [torch.randn(16, 4) for _ in range(4)]

log_cls, box_reg = model(x)
cls_l, box_l = crit(log_cls, box_reg, pos_masks, box_targets)
loss = cls_l.mean() + box_l.mean()
loss.backward()

assert model.cls.weight.grad.abs().sum() > 0
assert model.box.weight.grad.abs().sum() > 0
assert model.backbone[0].weight.grad.abs().sum() > 0
# placeholders are constants: only rows 0 and 2 carry graph
assert cls_l.requires_grad and cls_l[1].item() == 0.0 and cls_l[3].item() == 0.0
real = torch.stack([cls_l[0], cls_l[2]]).mean() + torch.stack([box_l[0], box_l[2]]).mean()
assert torch.allclose(loss, real * 0.5)

# one SGD step lowers the loss of the annotated images
opt = torch.optim.SGD(model.parameters(), lr=0.1)
opt.step()
with torch.no_grad():
    c2, b2 = crit(*model(x), pos_masks, box_targets)
assert (c2.mean() + b2.mean()) < loss
print("ok")
