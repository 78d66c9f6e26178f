"""Small residual classifier that keeps its last feature map so Grad-CAM can be taken with respect to it."""
import torch.nn as nn
import torch.nn.functional as F


class ResidualBlock(nn.Module):
    def __init__(self, in_c, out_c, stride=1):
        super().__init__()
        self.left = nn.Sequential(
            nn.Conv2d(in_c, out_c, 3, stride, 1, bias=False), nn.BatchNorm2d(out_c), nn.ReLU(inplace=True),
            nn.Conv2d(out_c, out_c, 3, 1, 1, bias=False), nn.BatchNorm2d(out_c),
        )
        self.shortcut = nn.Sequential()
        if stride != 1 or in_c != out_c:
            self.shortcut = nn.Sequential(nn.Conv2d(in_c, out_c, 1, stride, bias=False), nn.BatchNorm2d(out_c))

    def forward(self, x):
        return F.relu(self.left(x) + self.shortcut(x))


class SmallResNet(nn.Module):
    def __init__(self, num_classes=4):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv2d(3, 8, 3, 1, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU())
        self.layer1 = ResidualBlock(8, 8)
        self.layer2 = ResidualBlock(8, 16, stride=2)
        self.fc = nn.Linear(16, num_classes)
        self.feature = None

    def forward(self, x):
        out = self.layer2(self.layer1(self.conv1(x)))
        out.requires_grad_(True)
        self.feature = out
        out = F.avg_pool2d(out, 4).view(out.size(0), -1)
        return self.fc(out)
