"""expect: GL003 57
dynamic: confirm
source: https://github.com/ronghuaiyang/arcface-pytorch/issues/56

Face-recognition training with an additive-angular-margin (ArcFace) head. The training loop
reuses the validation helper `forward_batch`, which is decorated with @torch.no_grad(), so the
loss has no grad_fn; setting `loss.requires_grad = True` silences the error, but the loss
never decreases because neither the backbone nor the margin head receives a gradient.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ArcMarginHead(nn.Module):
    def __init__(self, emb_dim, n_ids, s=30.0, m=0.5):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(n_ids, emb_dim) * 0.01)
        self.s, self.m = s, m

    def forward(self, emb, labels):
        cosine = F.linear(F.normalize(emb), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - cosine.pow(2)).clamp(min=1e-6))
        phi = cosine * math.cos(self.m) - sine * math.sin(self.m)
        one_hot = F.one_hot(labels, cosine.size(1)).float()
        return self.s * (one_hot * phi + (1.0 - one_hot) * cosine)


@torch.no_grad()
def forward_batch(backbone, head, images, labels):
    """Shared with the validation loop."""
    emb = backbone(images)
    return head(emb, labels)


def validate(backbone, head, images, labels):
    logits = forward_batch(backbone, head, images, labels)
    return (logits.argmax(1) == labels).float().mean().item()


torch.manual_seed(0)
backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.PReLU(), nn.Linear(64, 16))
head = ArcMarginHead(16, 10)
opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.1, momentum=0.9)
criterion = nn.CrossEntropyLoss()
images = torch.randn(40, 3, 8, 8)
labels = torch.randint(0, 10, (40,))
snapshot = [p.detach().clone() for p in backbone.parameters()]

for epoch in range(3):
    for i in range(0, 40, 10):
        x, y = images[i:i + 10], labels[i:i + 10]
        logits = forward_batch(backbone, head, x, y)
        loss = criterion(logits, y)
        loss.requires_grad = True
        opt.zero_grad()
        loss.backward()
        opt.step()
    validate(backbone, head, images, labels)

assert all(p.grad is None for p in backbone.parameters())
assert head.weight.grad is None
assert all(torch.equal(a, b) for a, b in zip(snapshot, backbone.parameters()))
print("ok: nothing trained despite requires_grad fix")
