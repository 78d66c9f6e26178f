"""Conv blocks for a small image-to-image translation discriminator."""
import torch.nn as nn


def make_activation(kind, inplace):
    if kind == "lrelu":
        return nn.LeakyReLU(0.2, inplace=inplace)
    if kind == "relu":
        return nn.ReLU(inplace=inplace)
    return None


class Conv2dBlock(nn.Module):
    def __init__(self, in_dim, out_dim, ks, st, padding=0, activation="lrelu",
                 activation_first=False, use_bias=True, inplace=True):
        super().__init__()
        self.activation_first = activation_first
        self.pad = nn.ReflectionPad2d(padding)
        self.activation = make_activation(activation, inplace)
        self.conv = nn.Conv2d(in_dim, out_dim, ks, st, bias=use_bias)

    def forward(self, x):
        if self.activation_first:
            if self.activation:
                x = self.activation(x)
            x = self.conv(self.pad(x))
        else:
            x = self.conv(self.pad(x))
            if self.activation:
                x = self.activation(x)
        return x


class ActFirstResBlock(nn.Module):
    def __init__(self, fin, fout, inplace=True):
        super().__init__()
        self.learned_shortcut = fin != fout
        fhid = min(fin, fout)
        self.conv_0 = Conv2dBlock(fin, fhid, 3, 1, padding=1, activation_first=True,
                                  inplace=inplace)
        self.conv_1 = Conv2dBlock(fhid, fout, 3, 1, padding=1, activation_first=True,
                                  inplace=inplace)
        if self.learned_shortcut:
            self.conv_s = Conv2dBlock(fin, fout, 1, 1, activation="none", use_bias=False)

    def forward(self, x):
        x_s = self.conv_s(x) if self.learned_shortcut else x
        dx = self.conv_0(x)
        dx = self.conv_1(dx)
        return x_s + dx
