"""
expect: GL002 58
dynamic: confirm
source: https://github.com/swz30/MPRNet/issues/108

MPRNet's deblurring train.py sums its per-stage Charbonnier and edge losses with np.sum over a
list, and the reporter got "'float' object has no attribute 'backward'" at loss.backward().
This program rebuilds a three-stage restorer and that loss sum; to get a backward-able value the
stage losses are summed as Python numbers (via .item()) and wrapped in torch.tensor(...,
requires_grad=True), the usual workaround. The asserts show the rebuilt loss is a fresh leaf:
no restorer parameter receives a gradient and the step leaves them unchanged, while summing the
stage losses as tensors trains every stage.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class CharbonnierLoss(nn.Module):
    def __init__(self, eps=1e-3):
        super().__init__()
        self.eps = eps

    def forward(self, x, y):
        return torch.sqrt((x - y) ** 2 + self.eps ** 2).mean()


class EdgeLoss(nn.Module):
    def forward(self, x, y):
        dx = lambda t: t[:, :, 1:] - t[:, :, :-1]
        return F.l1_loss(dx(x), dx(y))


class ThreeStageRestorer(nn.Module):
    def __init__(self, ch=4):
        super().__init__()
        self.stages = nn.ModuleList(nn.Conv1d(ch, ch, 3, padding=1) for _ in range(3))

    def forward(self, x):
        outs, h = [], x
        for stage in self.stages:
            h = h + stage(h)
            outs.append(h)
        return outs[::-1]


def train_step(model, blurred, target, np_sum):
    crit_char, crit_edge = CharbonnierLoss(), EdgeLoss()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    opt.zero_grad()
    restored = model(blurred)
    if np_sum:
        loss_char = np.sum([crit_char(restored[j], target).item() for j in range(len(restored))])
        loss_edge = np.sum([crit_edge(restored[j], target).item() for j in range(len(restored))])
        loss = torch.tensor(loss_char + 0.05 * loss_edge, requires_grad=True)
    else:
        loss_char = sum(crit_char(r, target) for r in restored)
        loss_edge = sum(crit_edge(r, target) for r in restored)
        loss = loss_char + 0.05 * loss_edge
    loss.backward()
    opt.step()


blurred, target = torch.randn(2, 4, 20), torch.randn(2, 4, 20)
model = ThreeStageRestorer()
before = [p.detach().clone() for p in model.parameters()]
train_step(model, blurred, target, np_sum=True)
assert all(p.grad is None for p in model.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))

model2 = ThreeStageRestorer()
train_step(model2, blurred, target, np_sum=False)
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model2.parameters())
print("ok: stage losses summed as numbers and rebuilt train nothing")
