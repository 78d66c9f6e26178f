"""Small 3D ResNet for isolated sign recognition clips (shortcut type 'A')."""
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F


def pad_shortcut(x, planes, stride, keep_graph=False):
    # parameter-free shortcut: subsample in time/space and zero-pad the channels
    pooled = F.avg_pool3d(x, kernel_size=1, stride=stride)
    extra = torch.zeros(pooled.size(0), planes - pooled.size(1), *pooled.shape[2:])
    if keep_graph:
        return torch.cat([pooled, extra], dim=1)
    return torch.cat([pooled.data, extra], dim=1)


class BasicBlock3D(nn.Module):
    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv3d(inplanes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm3d(planes)
        self.conv2 = nn.Conv3d(planes, planes, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm3d(planes)
        self.downsample = downsample

    def forward(self, x):
        residual = x if self.downsample is None else self.downsample(x)
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + residual)


class ResNet3D(nn.Module):
    def __init__(self, num_classes=5, widths=(4, 8), keep_graph=False, zero_init_residual=False):
        super().__init__()
        self.stem = nn.Conv3d(3, widths[0], 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm3d(widths[0])
        self.layer1 = BasicBlock3D(widths[0], widths[0])
        shortcut = partial(pad_shortcut, planes=widths[1], stride=2, keep_graph=keep_graph)
        self.layer2 = BasicBlock3D(widths[0], widths[1], stride=2, downsample=shortcut)
        self.fc = nn.Linear(widths[1], num_classes)
        if zero_init_residual:
            for block in (self.layer1, self.layer2):
                nn.init.zeros_(block.bn2.weight)

    def forward(self, clip):
        x = F.relu(self.stem_bn(self.stem(clip)))
        x = self.layer2(self.layer1(x))
        return self.fc(x.mean(dim=(2, 3, 4)))
