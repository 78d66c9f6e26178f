import torch.nn as nn
import torch.nn.functional as F


class ShortcutBlock(nn.Module):
    def __init__(self, in_chan, out_chan, stride=1):
        super().__init__()
        self.shortcut = nn.Conv2d(in_chan, out_chan, 1, stride=stride, bias=False)
        self.conv1 = nn.Conv2d(in_chan, out_chan, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(out_chan)
        self.conv2 = nn.Conv2d(out_chan, out_chan, 3, padding=1, bias=False)

    def forward(self, x):
        sc = self.shortcut(x)
        act = F.relu(x, inplace=True)
        resd = self.conv2(F.relu(self.bn1(self.conv1(act))))
        return resd + sc


class ShortcutBlockFixed(ShortcutBlock):
    def forward(self, x):
        sc = self.shortcut(x)
        act = F.relu(x)
        resd = self.conv2(F.relu(self.bn1(self.conv1(act))))
        return resd + sc


class Net(nn.Module):
    def __init__(self, block_cls):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.block = block_cls(8, 16, stride=2)
        self.head = nn.Linear(16, 4)

    def forward(self, x):
        y = self.block(self.stem(x))
        return self.head(y.mean(dim=(2, 3)))
