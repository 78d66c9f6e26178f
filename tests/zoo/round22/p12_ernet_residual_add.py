"""
expect: GL005 40
dynamic: confirm
source: https://github.com/iMED-Lab/ER-Net/pull/3

A pull request to a 3D cerebrovascular segmentation network replaced `out += residual`
with `out = out + residual`: on PyTorch 1.13 training crashed with "one of the variables
needed for gradient computation has been modified by an inplace operation ... output 0
of ReluBackward0". The residual block ends in a ReLU, whose backward needs its own
output, and the in-place add overwrote that output. This program reproduces the encoder
block and a small 3D segmentation net. The asserts show backward raises the in-place
error, and the out-of-place add trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)


class ResEncoder3d(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.conv1 = nn.Conv3d(cin, cout, 3, padding=1)
        self.bn1 = nn.BatchNorm3d(cout)
        self.conv2 = nn.Conv3d(cout, cout, 3, padding=1)
        self.bn2 = nn.BatchNorm3d(cout)
        self.relu = nn.ReLU(inplace=False)
        self.conv1x1 = nn.Conv3d(cin, cout, 1)

    def forward(self, x):
        residual = self.conv1x1(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.merge(out, residual)
        return self.relu(out)

    @staticmethod
    def merge(out, residual):
        out += residual
        return out


class FixedResEncoder3d(ResEncoder3d):
    @staticmethod
    def merge(out, residual):
        return out + residual


class VesselNet(nn.Module):
    def __init__(self, block=ResEncoder3d):
        super().__init__()
        self.enc1 = block(1, 4)
        self.enc2 = block(4, 8)
        self.head = nn.Conv3d(8, 1, 1)

    def forward(self, x):
        return self.head(self.enc2(self.enc1(x)))


def train_step(net):
    vol = torch.randn(2, 1, 6, 6, 6)
    mask = (torch.rand(2, 1, 6, 6, 6) > 0.8).float()
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    loss = F.binary_cross_entropy_with_logits(net(vol), mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return net


torch.manual_seed(0)
try:
    train_step(VesselNet())
    raise AssertionError("in-place add on a ReLU output should break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

torch.manual_seed(0)
net = train_step(VesselNet(FixedResEncoder3d))
assert net.enc1.conv1.weight.grad is not None
print("p12 ok: `out += residual` overwrites the ReLU output saved for backward")
