"""Small residual CNN used by every federated client."""
import torch
from torch import nn


class ResidualBlock(nn.Module):
    def __init__(self, channels, out_of_place=False):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels, momentum=0.9)
        self.conv2 = nn.Conv2d(channels, channels, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels, momentum=0.9)
        self.relu = nn.ReLU(inplace=False)
        self.out_of_place = out_of_place

    def forward(self, x):
        residual = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = self.relu(out)
        if self.out_of_place:
            out = out + residual
        else:
            out += residual
        return out


class TinyResNet(nn.Module):
    def __init__(self, n_classes=3, channels=8, out_of_place=False):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(1, channels, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(channels, momentum=0.9), nn.ReLU())
        self.block = ResidualBlock(channels, out_of_place=out_of_place)
        self.head = nn.Linear(channels, n_classes)

    def forward(self, x):
        h = self.block(self.stem(x))
        return self.head(h.mean(dim=(2, 3)))
