"""
expect: none
dynamic: dismiss
source: kinds check 22, kind 8 (written for this check)

A credit-default scorer loops over its layers with ReLU skipped on the last one, then
clamps the output logit in place; a Linear does not save its output, so the in-place
clamp is safe. The asserts show backward succeeds and every parameter gets a gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DefaultScorer(nn.Module):
    def __init__(self, d_in=12, hidden=(24, 24)):
        super().__init__()
        dims = (d_in, *hidden, 1)
        self.layers = nn.ModuleList([nn.Linear(dims[k], dims[k + 1]) for k in range(len(dims) - 1)])

    def forward(self, x):
        h = x
        for i, layer in enumerate(self.layers):
            h = layer(h)
            if i != len(self.layers) - 1:
                h = torch.relu(h)
        h.clamp_(-8.0, 8.0)
        return h.squeeze(-1)


torch.manual_seed(16)
borrowers = torch.randn(50, 12)
defaulted = (torch.rand(50) < 0.2).float()
scorer = DefaultScorer()
F.binary_cross_entropy_with_logits(scorer(borrowers), defaulted).backward()
for name, p in scorer.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("ok: every parameter trains")
