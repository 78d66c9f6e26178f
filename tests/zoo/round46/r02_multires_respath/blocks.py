"""Conv-BN blocks and the residual 'ResPath' used on MultiResUNet skip connections."""
import torch.nn as nn
import torch.nn.functional as F


class ConvBN(nn.Module):
    def __init__(self, cin, cout, k, relu):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2)
        self.bn = nn.BatchNorm2d(cout, affine=False)
        self.relu = relu

    def forward(self, x):
        x = self.bn(self.conv(x))
        return F.relu(x) if self.relu else x


class ResPath(nn.Module):
    """length x (3x3 conv + 1x1 shortcut) on a skip connection."""

    def __init__(self, cin, cout, length, inplace_sum=True):
        super().__init__()
        self.inplace_sum = inplace_sum
        self.short = nn.ModuleList([ConvBN(cin if i == 0 else cout, cout, 1, relu=False) for i in range(length)])
        self.body = nn.ModuleList([ConvBN(cin if i == 0 else cout, cout, 3, relu=True) for i in range(length)])
        self.norm = nn.BatchNorm2d(cout, affine=False)

    def forward(self, x):
        for short, body in zip(self.short, self.body):
            shortcut = short(x)
            x = body(x)
            if self.inplace_sum:
                x += shortcut
            else:
                x = x + shortcut
            x = self.norm(F.relu(x))
        return x
