"""
expect: GL005 27
dynamic: confirm
source: kinds check 48, kind 3

A multi-label document tagger whose head is a subclass of nn.Sequential
ending in nn.Sigmoid. The caller zeroes out tags that are disabled for a
document in place on the head's output; Sigmoid saved that output for its
backward, so backward raises "modified by an inplace operation".
"""
import torch
import torch.nn as nn

torch.manual_seed(4)


class TagHead(nn.Sequential):
    def __init__(self, d, n_tags):
        super().__init__(nn.Linear(d, 64), nn.ReLU(), nn.Linear(64, n_tags), nn.Sigmoid())


head = TagHead(32, 10)
docs = torch.randn(16, 32)
allowed = (torch.rand(16, 10) > 0.3).float()
labels = torch.randint(0, 2, (16, 10)).float() * allowed
probs = head(docs)
probs *= allowed
loss = nn.functional.binary_cross_entropy(probs.clamp(1e-6, 1 - 1e-6), labels)
try:
    loss.backward()
    raise AssertionError("expected an inplace-modification error")
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e

# Intended: out-of-place mask works.
probs = head(docs) * allowed
nn.functional.binary_cross_entropy(probs.clamp(1e-6, 1 - 1e-6), labels).backward()
assert head[0].weight.grad is not None
print("ok: in-place mask on Sigmoid output broke backward")
