"""Residual block used by a RAFT-style feature encoder."""
from torch import nn


class BasicBlock(nn.Module):
    def __init__(self, inplanes, planes, stride=1, norm=True):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 3, stride=stride, padding=1)
        self.conv2 = nn.Conv2d(planes, planes, 3, padding=1)
        self.norm1 = nn.InstanceNorm2d(planes) if norm else nn.Identity()
        self.norm2 = nn.InstanceNorm2d(planes) if norm else nn.Identity()
        self.relu = nn.ReLU()
        self.downsample = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Conv2d(inplanes, planes, 1, stride=stride)

    def forward(self, x):
        identity = x
        out = self.relu(self.norm1(self.conv1(x)))
        out = self.relu(self.norm2(self.conv2(out)))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class BasicBlockOutOfPlace(BasicBlock):
    def forward(self, x):
        identity = x
        out = self.relu(self.norm1(self.conv1(x)))
        out = self.relu(self.norm2(self.conv2(out)))
        if self.downsample is not None:
            identity = self.downsample(x)
        out = out + identity
        return self.relu(out)
