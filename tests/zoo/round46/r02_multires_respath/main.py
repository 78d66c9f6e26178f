"""
expect: GL005 blocks.py:33
dynamic: confirm
source: https://github.com/j-sripad/mulitresunet-pytorch/issues/3

A two-level MultiResUNet-style segmenter whose skip connection goes through a ResPath: each step runs a
3x3 conv block that ends in a ReLU and a 1x1 shortcut block, then sums them with `x += shortcut`. The
`x` being added into is the ReLU's output, which autograd keeps to compute the ReLU gradient, so the
in-place sum invalidates it and backward raises "modified by an inplace operation", as the issue
reports for the repository's `+=` lines. The asserts show the error with the in-place ResPath and
normal training, with gradients reaching the ResPath convolutions, once the sum is written `x = x + shortcut`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from blocks import ConvBN, ResPath


class TinyMultiResUNet(nn.Module):
    def __init__(self, inplace_sum):
        super().__init__()
        self.enc1 = ConvBN(1, 8, 3, relu=True)
        self.skip1 = ResPath(8, 8, length=2, inplace_sum=inplace_sum)
        self.enc2 = ConvBN(8, 16, 3, relu=True)
        self.up = nn.ConvTranspose2d(16, 8, 2, stride=2)
        self.dec = ConvBN(16, 8, 3, relu=True)
        self.out = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        e1 = self.enc1(x)
        e2 = self.enc2(F.max_pool2d(e1, 2))
        d = self.dec(torch.cat([self.up(e2), self.skip1(e1)], dim=1))
        return self.out(d)


def fit(model, steps, img, mask):
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(model(img), mask)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


torch.manual_seed(0)
torch.set_num_threads(1)
img = torch.randn(4, 1, 16, 16)
mask = (torch.rand(4, 1, 16, 16) > 0.7).float()

torch.manual_seed(1)
buggy = TinyMultiResUNet(inplace_sum=True)
try:
    fit(buggy, 1, img, mask)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised, "x += shortcut on the ReLU output should break backward"

torch.manual_seed(1)
fixed = TinyMultiResUNet(inplace_sum=False)
losses = fit(fixed, 20, img, mask)
assert fixed.skip1.body[0].conv.weight.grad.abs().sum() > 0
assert losses[-1] < losses[0]
print("in-place ResPath raised; out-of-place loss %.3f -> %.3f" % (losses[0], losses[-1]))
