"""
expect: GL005 22
dynamic: confirm
source: kinds check 22, kind 8 (written for this check)

A precipitation-probability MLP applies ReLU after every layer, the last included, then
squashes its output in place with sigmoid_(); ReLU saved that output, so backward raises.
The asserts prove the raise, and that skipping the activation on the last layer trains.
"""
import torch
import torch.nn as nn


class RainNet(nn.Module):
    def __init__(self, sizes=(7, 32, 32, 1)):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))

    def forward(self, h):
        for layer in self.layers:
            h = torch.relu(layer(h))
        h.sigmoid_()
        return h.squeeze(-1)


class RainNetFixed(RainNet):
    def forward(self, h):
        for layer in self.layers[:-1]:
            h = torch.relu(layer(h))
        return torch.sigmoid(self.layers[-1](h)).squeeze(-1)


torch.manual_seed(15)
station_feats = torch.randn(40, 7)
rained = (torch.rand(40) < 0.3).float()
net = RainNet()
try:
    nn.functional.binary_cross_entropy(net(station_feats), rained).backward()
    raise AssertionError("expected an in-place error")
except RuntimeError as err:
    assert "inplace operation" in str(err), err

fixed = RainNetFixed()
nn.functional.binary_cross_entropy(fixed(station_feats), rained).backward()
assert all(p.grad.abs().sum() > 0 for p in fixed.parameters())
print("ok: sigmoid_ on ReLU output breaks backward")
