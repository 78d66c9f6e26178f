"""
expect: none
dynamic: dismiss
source: kinds check 25, kind 1

A tiny one-stage detection head over random anchor features. forward returns class logits,
box deltas and a nested tuple of detached diagnostics (mean objectness, mean box norm).
The caller unpacks `cls_logits, deltas, (obj_mean, box_norm) = model(feats)` but only logs the
diagnostics; the loss is classification + smooth-L1 on the attached outputs, so every
parameter trains and the detaches are harmless.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class AnchorHead(nn.Module):
    def __init__(self, c=24, n_cls=5):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(c, 32), nn.ReLU())
        self.cls = nn.Linear(32, n_cls)
        self.box = nn.Linear(32, 4)

    def forward(self, feats):
        h = self.trunk(feats)
        cls_logits = self.cls(h)
        deltas = self.box(h)
        obj = cls_logits.softmax(-1)[..., 1:].sum(-1)
        return cls_logits, deltas, (obj.mean().detach(), deltas.norm(dim=-1).mean().detach())


model = AnchorHead()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
feats = torch.randn(128, 24)
labels = torch.randint(0, 5, (128,))
gt_deltas = torch.randn(128, 4) * 0.5

history = []
losses = []
for step in range(60):
    cls_logits, deltas, (obj_mean, box_norm) = model(feats)
    pos = labels > 0
    loss = F.cross_entropy(cls_logits, labels) + F.smooth_l1_loss(deltas[pos], gt_deltas[pos])
    opt.zero_grad()
    loss.backward()
    history.append({"obj": obj_mean.item(), "box_norm": box_norm.item(), "loss": loss.item()})
    for name, p in model.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
    losses.append(loss.item())

assert losses[-1] < losses[0] * 0.9, (losses[0], losses[-1])
print("ok: trained from", round(losses[0], 3), "to", round(losses[-1], 3))
