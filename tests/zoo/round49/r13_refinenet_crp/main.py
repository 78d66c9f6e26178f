"""
expect: GL005 blocks.py:46
dynamic: confirm
source: https://github.com/thomasjpfan/pytorch_refinenet/issues/2

A tiny RefineNet-style segmentation model. Its chained residual pooling block applies an in-place ReLU, then
repeatedly max-pools a running path and accumulates it with `x += path`. The first max-pool saved `x` (its input)
for backward and the ReLU saved `x` (its output); the in-place accumulation bumps the version of that very tensor,
so loss.backward() raises "modified by an inplace operation" (the error reported in the linked issue, fixed there
by writing `x = x + path`). The in-place add in the fusion block on a convolution output is harmless by contrast.
The program shows the error and that the out-of-place accumulation trains every block.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from blocks import ChainedResidualPool, RefineBlock

torch.manual_seed(0)
torch.set_num_threads(1)


class OutOfPlaceCRP(ChainedResidualPool):
    def forward(self, x):
        x = self.relu(x)
        path = x
        for i in range(1, 4):
            path = getattr(self, f"block{i}")(path)
            x = x + path
        return x


class TinyRefineSeg(nn.Module):
    def __init__(self, num_classes=3, feats=8, crp_cls=ChainedResidualPool):
        super().__init__()
        self.stem = nn.Conv2d(3, feats, 3, padding=1)
        self.down = nn.Conv2d(feats, feats, 3, stride=2, padding=1)
        self.refine = RefineBlock(feats, crp_cls)
        self.classifier = nn.Conv2d(feats, num_classes, 1)

    def forward(self, img):
        f_hi = self.stem(img)
        f_lo = self.down(F.relu(f_hi))
        return self.classifier(self.refine(f_hi, f_lo))


img = torch.randn(2, 3, 16, 16)
labels = torch.randint(0, 3, (2, 16, 16))

net = TinyRefineSeg()
loss = F.cross_entropy(net(img), labels)
try:
    loss.backward()
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err

net_ok = TinyRefineSeg(crp_cls=OutOfPlaceCRP)
opt = torch.optim.SGD(net_ok.parameters(), lr=0.1)
first = None
for _ in range(15):
    loss = F.cross_entropy(net_ok(img), labels)
    first = loss.item() if first is None else first
    opt.zero_grad()
    loss.backward()
    opt.step()
assert all(p.grad is not None for p in net_ok.parameters())
assert loss.item() < first
print("in-place CRP accumulation raised; out-of-place version trains (loss %.3f -> %.3f)" % (first, loss.item()))
