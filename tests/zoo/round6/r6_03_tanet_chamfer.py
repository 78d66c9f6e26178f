"""expect: GL002 29
dynamic: confirm
source: https://github.com/ziyangyeh/TANet-Pytorch/blob/2cb6b66357a8e4183aa340fdc4f2a9d117ac9e9a/loss/geometric_reconstruction_loss.py

Tooth-alignment network (TANet-style): a small point encoder predicts one
rigid translation per tooth and the geometric reconstruction loss compares
the moved point clouds with the target arrangement by Chamfer distance. The
loss module wraps its result in Variable(loss, requires_grad=True), which
returns a brand-new leaf with no grad_fn: backward() then runs without error
but stops at that leaf, so the alignment network never receives a gradient.
"""
import torch
import torch.nn as nn
from torch.autograd import Variable


def chamfer(a, b):
    # a, b: (batch, points, 3)
    d = torch.cdist(a, b) ** 2
    return d.min(dim=2).values.sum(dim=1).mean() + d.min(dim=1).values.sum(dim=1).mean()


class GeometricReconstructionLoss(nn.Module):
    def forward(self, moved, target):
        # moved, target: (teeth, batch, points, 3)
        loss = chamfer(moved[0], target[0])
        for idx in range(1, moved.shape[0]):
            loss = loss + chamfer(moved[idx], target[idx])
        loss = Variable(loss, requires_grad=True)
        return loss


class ToothAligner(nn.Module):
    def __init__(self, hidden=16):
        super().__init__()
        self.point_mlp = nn.Sequential(nn.Linear(3, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.offset_head = nn.Linear(hidden, 3)

    def forward(self, teeth):
        feats = self.point_mlp(teeth).max(dim=2).values      # (teeth, batch, hidden)
        offsets = self.offset_head(feats).unsqueeze(2)        # (teeth, batch, 1, 3)
        return teeth + offsets


def train(model, criterion, optimizer, teeth, target, steps=2):
    for _ in range(steps):
        optimizer.zero_grad()
        loss = criterion(model(teeth), target)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    torch.manual_seed(0)
    teeth = torch.randn(4, 2, 32, 3)
    target = teeth + torch.randn(4, 2, 1, 3) * 0.5
    model = ToothAligner()
    before = [p.detach().clone() for p in model.parameters()]
    train(model, GeometricReconstructionLoss(), torch.optim.SGD(model.parameters(), lr=0.1), teeth, target)
    assert all(p.grad is None for p in model.parameters())
    assert all(torch.equal(b, p) for b, p in zip(before, model.parameters()))
    print("OK: aligner never trained; Variable(loss, requires_grad=True) made a fresh leaf")
