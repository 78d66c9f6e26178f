"""
expect: none
dynamic: dismiss
source: kinds check 52, kind 3

An audio tagger over spectrograms: a tanh-squashed stem output goes into a
block whose in-place ReLU (kept as self.act) sits after a convolution in
self.body, so it only overwrites the fresh conv output and the saved tanh
output is untouched; backward runs.
"""
import torch
import torch.nn as nn


class ConvAct(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.act = nn.ReLU(inplace=True)
        self.body = nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1), self.act)

    def forward(self, feats):
        return self.body(feats)


class Tagger(nn.Module):
    def __init__(self, n_tags=5):
        super().__init__()
        self.stem = nn.Conv2d(1, 6, 3, padding=1)
        self.mid = ConvAct(6, 12)
        self.cls = nn.Linear(12, n_tags)

    def forward(self, spec):
        h = torch.tanh(self.stem(spec))
        h = self.mid(h)
        return self.cls(h.mean(dim=(2, 3)))


torch.manual_seed(5)
model = Tagger()
spec = torch.randn(4, 1, 20, 30)
tags = torch.randint(0, 2, (4, 5)).float()
loss = nn.functional.binary_cross_entropy_with_logits(model(spec), tags)
loss.backward()
assert model.stem.weight.grad is not None and model.stem.weight.grad.abs().sum() > 0
print("ok: in-place ReLU after conv is safe")
