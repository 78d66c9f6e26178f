import torch
import torch.nn as nn


class TinySegNet(nn.Module):
    def __init__(self, ch=8, n_classes=3):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, ch, 3, padding=1), nn.ReLU(),
                                  nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(ch, ch, 2, stride=2)
        self.head = nn.Conv2d(2 * ch, n_classes, 1)
        self.skip = nn.Conv2d(1, ch, 3, padding=1)

    def forward(self, x):
        return self.head(torch.cat([self.up(self.down(x)), self.skip(x)], dim=1))
