import torch
import torch.nn as nn


class ConvBlock(nn.Module):
    """conv -> (norm) -> activation, post-activation layout."""

    def __init__(self, cin, cout, kernel_size=3, activation=True):
        super().__init__()
        pad = kernel_size // 2
        layers = [nn.Conv2d(cin, cout, kernel_size, padding=pad)]
        if activation:
            layers.append(nn.ReLU())
        self.block = nn.Sequential(*layers)

    def forward(self, x):
        return self.block(x)


class EncodingBlock(nn.Module):
    def __init__(self, cin, cout, residual=True, out_of_place=False):
        super().__init__()
        self.conv1 = ConvBlock(cin, cout)
        self.conv2 = ConvBlock(cout, cout)
        self.residual = residual
        self.out_of_place = out_of_place
        if residual:
            self.conv_residual = ConvBlock(cin, cout, kernel_size=1, activation=False)
        self.down = nn.MaxPool2d(2)

    def forward(self, x):
        if self.residual:
            connection = self.conv_residual(x)
            x = self.conv1(x)
            x = self.conv2(x)
            if self.out_of_place:
                x = x + connection
            else:
                x += connection
        else:
            x = self.conv1(x)
            x = self.conv2(x)
        skip = x
        return self.down(x), skip


class TinyUNet(nn.Module):
    def __init__(self, cin=1, classes=3, out_of_place=False):
        super().__init__()
        self.enc1 = EncodingBlock(cin, 8, out_of_place=out_of_place)
        self.enc2 = EncodingBlock(8, 16, out_of_place=out_of_place)
        self.up = nn.Upsample(scale_factor=2)
        self.dec = ConvBlock(16 + 8, 8)
        self.head = nn.Conv2d(8, classes, 1)

    def forward(self, x):
        x, skip1 = self.enc1(x)
        _, deep = self.enc2(x)
        x = self.up(deep)
        x = self.dec(torch.cat([x, skip1], 1))
        return self.head(x)
