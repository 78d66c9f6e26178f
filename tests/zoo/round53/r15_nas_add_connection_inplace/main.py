"""
expect: GL005 connections.py:19
dynamic: confirm
source: https://github.com/huawei-noah/vega/issues/222

A pruning/NAS search space in the style of Vega builds residual blocks from generic connection modules:
Add(shortcut, conv branch) sums its children with `output += branch(x)`. When the first child is the
identity shortcut, `output` is the block input itself, i.e. the output of the previous ReLU, which ReLU
saved for backward (and the conv branch saved as its input). The in-place add changes it, so training the
sampled network raises "modified by an inplace operation", the error the issue reports (on a
ReluBackward0 output) from the prune_ea pipeline on PyTorch 1.10. The program asserts that RuntimeError for a
network built by the factory, and shows that an out-of-place sum trains the same architecture.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

import connections
from connections import Add, Sequential


def conv_branch(channels):
    return Sequential(nn.Conv2d(channels, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels),
                      nn.ReLU(), nn.Conv2d(channels, channels, 3, padding=1, bias=False),
                      nn.BatchNorm2d(channels))


def build_from_code(code, channels=8, n_classes=4):
    """code: list of 0/1, 1 keeps a residual block in the sampled architecture."""
    layers = [nn.Conv2d(3, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels), nn.ReLU()]
    for keep in code:
        if keep:
            layers += [Add(nn.Identity(), conv_branch(channels)), nn.ReLU()]
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(channels, n_classes)]
    return Sequential(*layers)


def train_candidate(model, steps=2):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    g = torch.Generator().manual_seed(11)
    for _ in range(steps):
        x = torch.randn(4, 3, 8, 8, generator=g)
        y = torch.randint(0, 4, (4,), generator=g)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
    return loss.item()


torch.manual_seed(0)
torch.set_num_threads(1)

try:
    train_candidate(build_from_code([1, 0, 1]))
    raise AssertionError("expected the in-place Add to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err


def add_out_of_place(self, x):
    output = None
    for branch in self.children():
        output = branch(x) if output is None else output + branch(x)
    return output


connections.Add.forward = add_out_of_place
torch.manual_seed(0)
model = build_from_code([1, 0, 1])
stem_before = model[0].weight.detach().clone()
loss = train_candidate(model)
assert model[0].weight.grad is not None and not torch.equal(model[0].weight, stem_before)
print("in-place Add rejected by the version check as expected; out-of-place Add trains, loss %.3f" % loss)
