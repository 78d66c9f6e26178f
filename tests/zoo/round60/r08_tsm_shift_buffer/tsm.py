import torch
import torch.nn as nn


class TemporalShift(nn.Module):
    """Shift a fraction of the channels one frame forward / backward before the wrapped layer."""

    def __init__(self, net, n_segment=4, n_div=4, inplace=False):
        super().__init__()
        self.net = net
        self.n_segment = n_segment
        self.fold_div = n_div
        self.inplace = inplace

    def forward(self, x):
        x = self.shift(x, self.n_segment, fold_div=self.fold_div, inplace=self.inplace)
        return self.net(x)

    @staticmethod
    def shift(x, n_segment, fold_div=4, inplace=False):
        nt, c, h, w = x.size()
        n_batch = nt // n_segment
        x = x.view(n_batch, n_segment, c, h, w)
        fold = c // fold_div
        if inplace:
            raise NotImplementedError("in-place shift needs a custom kernel")
        out = torch.zeros_like(x)
        out[:, :-1, :fold] = x[:, 1:, :fold]                    # shift left
        out[:, 1:, fold:2 * fold] = x[:, :-1, fold:2 * fold]    # shift right
        out[:, :, 2 * fold:] = x[:, :, 2 * fold:]               # keep
        return out.view(nt, c, h, w)


class BasicBlock(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(ch)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(ch)

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += identity
        return self.relu(out)


def make_temporal_shift(blocks, n_segment, n_div=4):
    """'blockres' placement: shift inside the residual branch, before conv1."""
    for b in blocks:
        b.conv1 = TemporalShift(b.conv1, n_segment=n_segment, n_div=n_div)
    return blocks
