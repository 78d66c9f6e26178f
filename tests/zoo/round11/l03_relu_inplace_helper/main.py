"""
expect: none
dynamic: dismiss
source: https://github.com/mli0603/stereo-transformer/issues/61

The report: STTR's _relu_inplace() set `inplace = True` on nn.BatchNorm2d modules instead of on the
ReLUs; the fix made the helper switch the ReLUs themselves to in-place. This program rebuilds the
fixed helper in utils.py and applies it to a feature extractor whose ReLUs all follow a BatchNorm (or
a residual sum computed out of place), so no recorded op needs the overwritten tensors. The asserts
show backward succeeds and every gradient matches, to float tolerance, those of an identical copy
with out-of-place ReLUs, and a training step changes the weights.
"""
import copy

import torch
import torch.nn as nn

from utils import count_inplace, make_relu_inplace


class ResBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1, self.bn1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False), nn.BatchNorm2d(ch)
        self.conv2, self.bn2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False), nn.BatchNorm2d(ch)
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = out + x
        return self.relu(out)


class FeatureExtractor(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU())
        self.blocks = nn.Sequential(ResBlock(8), ResBlock(8))
        self.head = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        return self.head(self.blocks(self.stem(x)))


torch.manual_seed(0)
ref = FeatureExtractor()
model = make_relu_inplace(copy.deepcopy(ref))
assert count_inplace(model) == 3 and count_inplace(ref) == 0

img = torch.randn(2, 3, 12, 12)
target = torch.randn(2, 4, 12, 12)
for net in (ref, model):
    ((net(img) - target) ** 2).mean().backward()
for (name, p_ref), (_, p) in zip(ref.named_parameters(), model.named_parameters()):
    assert torch.allclose(p_ref.grad, p.grad, atol=1e-6), name

opt = torch.optim.SGD(model.parameters(), lr=0.1)
w0 = model.stem[0].weight.detach().clone()
opt.step()
assert not torch.equal(w0, model.stem[0].weight)
print("ok: in-place ReLUs after BatchNorm / out-of-place sums give identical gradients")
