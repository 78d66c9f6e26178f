"""
expect: none
dynamic: dismiss
source: none, invented

Linear-probe / adapter fine-tuning on top of a pretrained CNN. models.py wraps a backbone whose parameters are
set to requires_grad=False and runs it under `torch.no_grad()` on the raw images handed to forward -- the
model's own input, not an intermediate activation -- then feeds the features to a trainable adapter and
classifier. The script "pretrains" the backbone on a proxy task, loads it into the probe, wraps the probe in
nn.DataParallel and trains only the head. Nothing trainable sits before the no_grad block, so no gradient is
lost: the asserts show the adapter and classifier receive gradients and learn the task (accuracy rises well
above chance) while the backbone weights stay exactly as loaded, which is the point of a frozen extractor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from models import ProbeClassifier, make_backbone

torch.manual_seed(0)
torch.set_num_threads(1)


def colour_blobs(n):
    labels = torch.randint(0, 4, (n,))
    imgs = 0.3 * torch.randn(n, 3, 16, 16)
    for i, c in enumerate(labels.tolist()):
        ch, half = c % 3, c // 3
        imgs[i, ch, half * 8:(half + 1) * 8] += 1.5
    return imgs, labels


def pretrain_backbone():
    backbone = make_backbone()
    head = nn.Linear(32, 4)
    opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.1)
    for _ in range(40):
        x, y = colour_blobs(64)
        loss = F.cross_entropy(head(backbone(x)), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return backbone


backbone = pretrain_backbone()
probe = nn.DataParallel(ProbeClassifier(backbone))
loaded = {k: v.clone() for k, v in probe.module.backbone.state_dict().items()}
head_start = probe.module.classifier.weight.detach().clone()
optimizer = torch.optim.AdamW([p for p in probe.parameters() if p.requires_grad], lr=3e-3)

probe.train()
for step in range(80):
    images, labels = colour_blobs(64)
    loss = F.cross_entropy(probe(images), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

probe.eval()
with torch.no_grad():
    x, y = colour_blobs(512)
    acc = (probe(x).argmax(1) == y).float().mean().item()

assert probe.module.adapter[0].weight.grad is not None
assert probe.module.classifier.weight.grad.abs().sum() > 0
assert not torch.equal(head_start, probe.module.classifier.weight)
assert all(torch.equal(loaded[k], v) for k, v in probe.module.backbone.state_dict().items())
assert acc > 0.6, acc
print(f"ok: head trains on frozen features, probe accuracy {acc:.2f}")
