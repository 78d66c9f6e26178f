"""
expect: none
dynamic: dismiss
source: kinds check 31, kind 2

Fine-tuning with an L2-SP anchor: the penalty is taken on the live parameters
against a detached copy of the pretrained weights, so it does shape the
gradient. The `.data` clamp happens after the optimizer step, outside the loss.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 3))
anchor = [p.detach().clone() for p in model.parameters()]
with torch.no_grad():
    for p in model.parameters():
        p.add_(0.05 * torch.randn_like(p))

opt = torch.optim.SGD(model.parameters(), lr=0.05)
x = torch.randn(40, 10)
y = torch.randint(0, 3, (40,))
alpha = 0.3


def total_loss(with_anchor=True):
    task = nn.functional.cross_entropy(model(x), y)
    if not with_anchor:
        return task
    penalty = sum((p - a).pow(2).sum() for p, a in zip(model.parameters(), anchor))
    return task + alpha * penalty


for _ in range(3):
    opt.zero_grad()
    total_loss().backward()
    opt.step()
    for p in model.parameters():
        p.data.clamp_(-1.0, 1.0)


def grads(flag):
    model.zero_grad()
    total_loss(flag).backward()
    return [p.grad.clone() for p in model.parameters()]


diff = sum((a - b).abs().sum().item() for a, b in zip(grads(True), grads(False)))
assert diff > 0, "anchor penalty must add gradient"
assert all(p.abs().max() <= 1.0 for p in model.parameters())
print("ok: anchor penalty is live", diff)
