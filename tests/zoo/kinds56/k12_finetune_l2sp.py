"""
expect: none
dynamic: dismiss
source: none, invented

Transfer learning with the L2-SP regularizer.  A small CNN backbone is pretrained on a source task
(4-way classification of synthetic oriented gratings), then fine-tuned with a fresh head on a target
task (2-way: low vs high spatial frequency).  `L2SPFinetuner` stores the starting point with
`[p.detach().clone() for p in backbone.parameters()]` and penalizes the squared distance of the live
backbone weights from that anchor.  The anchor must be a constant, so detaching it is the point of
the code; the penalty is computed on the live parameters and does train them.  The asserts check that
the penalty's gradient equals 2 * alpha * (w - w0), that the anchor never changes, and that the
fine-tuned model learns the target task while staying close to the pretrained weights.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def gratings(n, n_orient=4, freqs=(0.15,)):
    yy, xx = torch.meshgrid(torch.arange(16.0), torch.arange(16.0), indexing="ij")
    orient = torch.randint(0, n_orient, (n,))
    fidx = torch.randint(0, len(freqs), (n,))
    theta = math.pi * orient.float() / n_orient
    f = torch.tensor(freqs)[fidx]
    phase = 2 * math.pi * torch.rand(n)
    proj = xx * torch.cos(theta)[:, None, None] + yy * torch.sin(theta)[:, None, None]
    img = torch.sin(2 * math.pi * f[:, None, None] * proj + phase[:, None, None])
    return (img + 0.3 * torch.randn_like(img)).unsqueeze(1), orient, fidx


def make_backbone():
    return nn.Sequential(
        nn.Conv2d(1, 8, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
    )


class L2SPFinetuner:
    def __init__(self, backbone, n_classes, alpha=0.01, lr=2e-3):
        self.backbone = backbone
        self.head = nn.Linear(16, n_classes)
        self.alpha = alpha
        self.anchor = [p.detach().clone() for p in backbone.parameters()]
        self.opt = torch.optim.Adam(list(backbone.parameters()) + list(self.head.parameters()), lr=lr)

    def penalty(self):
        return sum(((w - w0) ** 2).sum() for w, w0 in zip(self.backbone.parameters(), self.anchor))

    def step(self, x, y):
        loss = F.cross_entropy(self.head(self.backbone(x)), y) + self.alpha * self.penalty()
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def distance(self):
        with torch.no_grad():
            return math.sqrt(self.penalty().item())


backbone = make_backbone()
src_head = nn.Linear(16, 4)
opt = torch.optim.Adam(list(backbone.parameters()) + list(src_head.parameters()), lr=3e-3)
for _ in range(150):
    x, orient, _ = gratings(64)
    loss = F.cross_entropy(src_head(backbone(x)), orient)
    opt.zero_grad()
    loss.backward()
    opt.step()

tuner = L2SPFinetuner(backbone, 2)
anchor_copy = [a.clone() for a in tuner.anchor]
for _ in range(10):
    x, _, f = gratings(64, freqs=(0.08, 0.3))
    tuner.step(x, f)

backbone.zero_grad()
tuner.penalty().backward()
for w, w0 in zip(backbone.parameters(), tuner.anchor):
    assert torch.allclose(w.grad, 2 * (w.detach() - w0), atol=1e-6)
assert any(w.grad.abs().sum() > 0 for w in backbone.parameters())

for _ in range(190):
    x, _, f = gratings(64, freqs=(0.08, 0.3))
    tuner.step(x, f)

assert all(torch.equal(a, b) for a, b in zip(anchor_copy, tuner.anchor))
with torch.no_grad():
    x, _, f = gratings(400, freqs=(0.08, 0.3))
    acc = (tuner.head(backbone(x)).argmax(-1) == f).float().mean().item()
assert acc > 0.9, acc
assert 0 < tuner.distance() < 5.0, tuner.distance()
print(f"k12: L2-SP anchor; target accuracy {acc:.2f}, distance from anchor {tuner.distance():.3f}")
