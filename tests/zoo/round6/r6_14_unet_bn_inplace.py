"""expect: none
dynamic: dismiss
source: https://github.com/fastai/fastai/pull/1115

U-Net (fastai DynamicUnet style) whose encoder, middle block and decoder
blocks all use nn.ReLU(inplace=True), including the extra BatchNorm+ReLU at
the base of the U-Net added by the PR. This looks like the classic "modified
by an inplace operation" trap, but every in-place ReLU directly follows a
BatchNorm, and BatchNorm's backward needs its input and batch statistics, not
its output, so nothing the graph saved is overwritten (as noted in the PR
discussion). Training works and all layers receive gradients.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn_relu(ni, nf):
    return nn.Sequential(nn.Conv2d(ni, nf, 3, padding=1, bias=False), nn.BatchNorm2d(nf), nn.ReLU(inplace=True))


class UnetBlock(nn.Module):
    def __init__(self, up_in, skip_in, out):
        super().__init__()
        self.up = nn.ConvTranspose2d(up_in, up_in // 2, 2, stride=2)
        self.skip_bn = nn.BatchNorm2d(skip_in)
        self.conv1 = conv_bn_relu(up_in // 2 + skip_in, out)
        self.conv2 = conv_bn_relu(out, out)

    def forward(self, x, skip):
        cat = torch.cat([self.up(x), self.skip_bn(skip)], dim=1)
        return self.conv2(self.conv1(F.relu(cat)))


class TinyUnet(nn.Module):
    def __init__(self, n_classes=2):
        super().__init__()
        self.enc1 = conv_bn_relu(3, 8)
        self.enc2 = conv_bn_relu(8, 16)
        self.middle_conv = nn.Sequential(
            nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            conv_bn_relu(16, 32), conv_bn_relu(32, 16),
        )
        self.dec = UnetBlock(16, 8, 8)
        self.final = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        s1 = self.enc1(x)
        x = self.middle_conv(self.enc2(F.max_pool2d(s1, 2)))
        return self.final(self.dec(x, s1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = TinyUnet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    imgs, masks = torch.rand(2, 3, 16, 16), torch.randint(0, 2, (2, 16, 16))
    for _ in range(2):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(imgs), masks)
        loss.backward()
        optimizer.step()
    for name, p in model.named_parameters():
        assert p.grad is not None and torch.isfinite(p.grad).all(), name
    assert model.enc1[0].weight.grad.abs().sum() > 0
    print("OK: in-place ReLUs right after BatchNorm are safe; every layer trains")
