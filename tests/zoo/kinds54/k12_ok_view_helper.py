"""
expect: none
dynamic: dismiss
source: kinds check 54, kind 6

Spectrogram preview: lead_item() returns t[0] (a view) when the batch has one clip.
It is handed spec.detach().clone(), a copy of the conv's saved input, so scaling the
preview in place leaves the conv's input intact and backward works.
"""
import torch
import torch.nn as nn


def lead_item(t):
    if t.size(0) == 1:
        return t[0]
    return t.mean(0)


torch.manual_seed(6)
frontend = nn.Linear(64, 64)
conv = nn.Conv2d(1, 4, 3, padding=1)
raw = torch.randn(1, 1, 32, 64)
spec = frontend(raw)
feat = conv(spec)
loss = feat.relu().mean()

preview = lead_item(spec.detach().clone())
preview.mul_(0.5)
preview += 1.0

loss.backward()
assert conv.weight.grad is not None and frontend.weight.grad.abs().sum() > 0
print("ok: backward fine")
