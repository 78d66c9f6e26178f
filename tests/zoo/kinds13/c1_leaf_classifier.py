"""
expect: GL001 32
dynamic: confirm
source: kind C

A small conv backbone and a linear head classify synthetic leaf images, with a
single Adam optimizer over both. The loss feeds the head a detached copy of the
backbone features and nothing else reaches the backbone, so it never trains.
Asserts: backbone grads stay None and its weights are unchanged after several
steps while the head changes; a fixed version trains the backbone.
"""
import itertools
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(6)

backbone = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(2), nn.Flatten()
)
head = nn.Linear(32, 4)
opt = torch.optim.Adam(itertools.chain(backbone.parameters(), head.parameters()), lr=1e-2)

images = torch.randn(12, 3, 16, 16)
labels = torch.randint(0, 4, (12,))

bb0 = [p.detach().clone() for p in backbone.parameters()]
hd0 = [p.detach().clone() for p in head.parameters()]
for _ in range(3):
    opt.zero_grad()
    feats = backbone(images).detach()
    loss = F.cross_entropy(head(feats), labels)
    loss.backward()
    opt.step()
    assert all(p.grad is None for p in backbone.parameters())

assert all(torch.equal(a, p) for a, p in zip(bb0, backbone.parameters()))
assert all(not torch.equal(a, p) for a, p in zip(hd0, head.parameters()))

# fixed: features attached
opt.zero_grad()
loss = F.cross_entropy(head(backbone(images)), labels)
loss.backward()
opt.step()
assert any(not torch.equal(a, p) for a, p in zip(bb0, backbone.parameters()))
print("ok: backbone is in the optimizer but never trains; fixed version trains it")
