"""A small ResNet whose residual blocks were channel-pruned.

After pruning, the second conv of a block only produces the kept channels.
The pruned channels still contribute to the residual sum: their BatchNorm
output is a per-channel constant (the BN shift), kept in the buffer
``bn_value``.  The block adds that constant to the shortcut and scatters the
kept channels back with ``index_add_``.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PrunedBasicBlock(nn.Module):
    def __init__(self, planes, keep_idx, inplace_shortcut=True):
        super().__init__()
        kept = len(keep_idx)
        self.conv1 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, kept, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(kept)
        self.register_buffer("index", torch.as_tensor(keep_idx, dtype=torch.long))
        shift = torch.full((1, planes, 1, 1), 0.05)
        shift[:, self.index] = 0.0
        self.register_buffer("bn_value", shift)
        self.inplace_shortcut = inplace_shortcut

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        residual = x
        if self.inplace_shortcut:
            residual += self.bn_value
        else:
            residual = residual + self.bn_value
        residual.index_add_(1, self.index, out)
        return F.relu(residual)


class TinyPrunedResNet(nn.Module):
    def __init__(self, planes=8, num_classes=3, inplace_shortcut=True):
        super().__init__()
        self.stem = nn.Conv2d(3, planes, 3, padding=1, bias=False)
        self.stem_bn = nn.BatchNorm2d(planes)
        self.block1 = PrunedBasicBlock(planes, [0, 2, 3, 5, 7], inplace_shortcut)
        self.block2 = PrunedBasicBlock(planes, [1, 2, 4, 6], inplace_shortcut)
        self.fc = nn.Linear(planes, num_classes)

    def forward(self, x):
        x = F.relu(self.stem_bn(self.stem(x)))
        x = self.block2(self.block1(x))
        return self.fc(x.mean(dim=(2, 3)))
