"""expect: GL005 33
dynamic: confirm
source: kinds8 (kind A)

Each gate stage ends in sigmoid, which saves its result; the loop then rescales
that result in place with mul_, so backward finds a saved tensor modified.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GateStage(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv = nn.Conv2d(ch, ch, 3, padding=1)

    def forward(self, x):
        return torch.sigmoid(self.conv(x))


class SaliencyNet(nn.Module):
    def __init__(self, ch=4, depth=3):
        super().__init__()
        self.stem = nn.Conv2d(3, ch, 1)
        self.stages = nn.ModuleList([GateStage(ch) for _ in range(depth)])
        self.head = nn.Conv2d(ch, 1, 1)

    def forward(self, img):
        fmap = self.stem(img)
        for stage in self.stages:
            fmap = stage(fmap)
            fmap.mul_(2.0)
        return self.head(fmap)


def main():
    torch.manual_seed(0)
    net = SaliencyNet()
    img = torch.randn(2, 3, 8, 8)
    mask = torch.rand(2, 1, 8, 8)
    loss = F.binary_cross_entropy_with_logits(net(img), mask)
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
    else:
        raise AssertionError("expected an in-place RuntimeError")
    print("OK")


if __name__ == "__main__":
    main()
