"""
expect: GL005 res_layer.py:23
dynamic: confirm
source: https://github.com/open-mmlab/mmflow/pull/252

A small RAFT-style optical-flow model: a shared feature encoder built from residual blocks
(res_layer.py), an all-pairs correlation volume, and a few refinement iterations that update
the flow, trained with a sequence loss against ground-truth flow. The residual block adds the
shortcut with "out += identity" on the output of a ReLU; ReLU keeps its output for the
backward pass, so the in-place add invalidates it and fine-tuning the encoder fails in
backward with "modified by an inplace operation". The asserts catch that error and show that
the same model built with an out-of-place add backpropagates into the encoder weights.
"""
import torch
import torch.nn.functional as F
from torch import nn

from res_layer import BasicBlock, BasicBlockOutOfPlace


class FeatureEncoder(nn.Module):
    def __init__(self, block, dim=16):
        super().__init__()
        self.stem = nn.Conv2d(3, dim, 3, stride=2, padding=1)
        self.layer = block(dim, dim)
        self.out = nn.Conv2d(dim, dim, 1)

    def forward(self, img):
        return self.out(self.layer(F.relu(self.stem(img))))


class TinyRAFT(nn.Module):
    def __init__(self, block, iters=3):
        super().__init__()
        self.fnet = FeatureEncoder(block)
        self.iters = iters
        self.update = nn.Sequential(nn.Conv2d(2 + 1, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 2, 3, padding=1))

    def forward(self, img1, img2):
        f1, f2 = self.fnet(img1), self.fnet(img2)
        corr = (f1 * f2).sum(1, keepdim=True) / f1.shape[1] ** 0.5
        flow = torch.zeros(img1.shape[0], 2, *f1.shape[-2:])
        predictions = []
        for _ in range(self.iters):
            flow = flow + self.update(torch.cat([flow, corr], dim=1))
            predictions.append(F.interpolate(flow, scale_factor=2, mode="bilinear", align_corners=False) * 2)
        return predictions


def sequence_loss(predictions, flow_gt, gamma=0.8):
    n = len(predictions)
    return sum(gamma ** (n - i - 1) * (p - flow_gt).abs().mean() for i, p in enumerate(predictions))


torch.manual_seed(0)
torch.set_num_threads(1)
img1, img2 = torch.rand(2, 3, 16, 16), torch.rand(2, 3, 16, 16)
flow_gt = torch.randn(2, 2, 16, 16)

model = TinyRAFT(BasicBlock)
loss = sequence_loss(model(img1, img2), flow_gt)
try:
    loss.backward()
    error = None
except RuntimeError as err:
    error = str(err)
assert error is not None and "modified by an inplace operation" in error
assert model.fnet.layer.conv2.weight.grad is None

torch.manual_seed(0)
model = TinyRAFT(BasicBlockOutOfPlace)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
start = model.fnet.layer.conv2.weight.detach().clone()
losses = []
for _ in range(10):
    loss = sequence_loss(model(img1, img2), flow_gt)
    optimizer.zero_grad()
    loss.backward()
    assert model.fnet.layer.conv2.weight.grad.abs().sum() > 0
    optimizer.step()
    losses.append(loss.item())
assert (model.fnet.layer.conv2.weight - start).abs().max() > 0
assert losses[-1] < losses[0]
print("in-place shortcut: backward refused | out-of-place: loss", round(losses[0], 4), "->", round(losses[-1], 4))
