"""
expect: GL005 27
dynamic: confirm
source: kinds check 52, kind 3

An image denoiser whose residual block stores an in-place ReLU as self.act and
puts it first in self.body. The network gates features with torch.sigmoid and
hands the gated tensor (the sigmoid output, saved for its backward) to the
block, so the in-place ReLU overwrites it and backward raises.
"""
import torch
import torch.nn as nn


class PreActBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.act = nn.ReLU(inplace=True)
        self.body = nn.Sequential(
            self.act,
            nn.Conv2d(ch, ch, 3, padding=1),
            nn.BatchNorm2d(ch),
            nn.Conv2d(ch, ch, 3, padding=1),
        )

    def forward(self, x):
        out = self.body(x)
        return out


class GatedDenoiser(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.stem = nn.Conv2d(1, ch, 3, padding=1)
        self.block = PreActBlock(ch)
        self.out = nn.Conv2d(ch, 1, 1)

    def forward(self, img):
        gate = torch.sigmoid(self.stem(img))
        return img - self.out(self.block(gate))


torch.manual_seed(4)
net = GatedDenoiser()
noisy = torch.randn(2, 1, 16, 16)
clean = torch.randn(2, 1, 16, 16)
loss = ((net(noisy) - clean) ** 2).mean()
try:
    loss.backward()
except RuntimeError as e:
    assert "modified by an inplace operation" in str(e), e
else:
    raise AssertionError("expected in-place RuntimeError")
print("ok: in-place ReLU first in body clobbers the saved sigmoid output")
