"""
expect: none
dynamic: dismiss
source: kinds check 22, kind 6 (written for this check)

A point-cloud classifier's robustness check runs under @torch.no_grad(), and the
point-shifting PGD attack inside `with torch.enable_grad()` calls backward(); here
enable_grad does switch recording back on. The asserts show the attack got a nonzero
input gradient and moved the points.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PointNetTiny(nn.Module):
    def __init__(self, n_cls=3):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(3, 32), nn.ReLU(), nn.Linear(32, 64))
        self.cls = nn.Linear(64, n_cls)

    def forward(self, pts):
        return self.cls(self.mlp(pts).max(dim=1).values)


def pgd_points(model, pts, labels, steps=3, step=0.01):
    delta = torch.zeros_like(pts, requires_grad=True)
    for _ in range(steps):
        F.cross_entropy(model(pts + delta), labels).backward()
        delta.data += step * delta.grad.sign()
        delta.grad.zero_()
    return (pts + delta).detach()


class Evaluator:
    def __init__(self, model):
        self.model = model

    @torch.no_grad()
    def robust_eval(self, pts, labels):
        with torch.enable_grad():
            adv = pgd_points(self.model, pts, labels)
        return adv, (self.model(adv).argmax(1) == labels).float().mean()


torch.manual_seed(12)
pts, labels = torch.randn(4, 128, 3), torch.tensor([0, 1, 2, 0])
adv, acc = Evaluator(PointNetTiny()).robust_eval(pts, labels)
assert (adv - pts).abs().max() > 0, "attack should move the points"
print("ok: attack runs under no_grad + enable_grad, acc", float(acc))
