"""expect: none
dynamic: none
source: https://github.com/yaq007/Autofocus-Layer/issues/6

The Autofocus layer computes attention weights over parallel dilated convolutions from
x.detach(), and a reader asked how the attention convolutions can then be trained.  The
author explained the detach only stops the attention branch from updating the main
branch; convatt* still get gradients through the attention weights that scale the
branch outputs.  The in-place x1 += ... and ReLU(inplace=True) touch no saved tensor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Autofocus(nn.Module):
    def __init__(self, inplanes, outplanes1, outplanes2, dilation_list=(1, 2, 3), num_branches=3):
        super().__init__()
        self.dilation_list = dilation_list
        self.num_branches = num_branches
        self.conv1 = nn.Conv2d(inplanes, outplanes1, 3, padding=1)
        self.convatt11 = nn.Conv2d(inplanes, inplanes // 2, 3, padding=1)
        self.convatt12 = nn.Conv2d(inplanes // 2, num_branches, 1)
        self.bn_list1 = nn.ModuleList(nn.BatchNorm2d(outplanes1) for _ in range(num_branches))
        self.conv2 = nn.Conv2d(outplanes1, outplanes2, 3, padding=1)
        self.convatt21 = nn.Conv2d(outplanes1, outplanes1 // 2, 3, padding=1)
        self.convatt22 = nn.Conv2d(outplanes1 // 2, num_branches, 1)
        self.bn_list2 = nn.ModuleList(nn.BatchNorm2d(outplanes2) for _ in range(num_branches))
        self.relu = nn.ReLU(inplace=True)
        self.downsample = None if inplanes == outplanes2 else nn.Conv2d(inplanes, outplanes2, 1)

    def forward(self, x):
        residual = x
        feature = x.detach()
        att = self.relu(self.convatt11(feature))
        att = F.softmax(self.convatt12(att), dim=1)

        x1 = self.conv1(x)
        shape = x1.size()
        x1 = self.bn_list1[0](x1) * att[:, 0:1].expand(shape)
        for i in range(1, self.num_branches):
            d = self.dilation_list[i]
            x2 = F.conv2d(x, self.conv1.weight, self.conv1.bias, padding=d, dilation=d)
            x2 = self.bn_list1[i](x2)
            x1 += x2 * att[:, i:i + 1].expand(shape)
        x = self.relu(x1)

        feature2 = x.detach()
        att2 = self.relu(self.convatt21(feature2))
        att2 = F.softmax(self.convatt22(att2), dim=1)
        x21 = self.conv2(x)
        shape = x21.size()
        x21 = self.bn_list2[0](x21) * att2[:, 0:1].expand(shape)
        for i in range(1, self.num_branches):
            d = self.dilation_list[i]
            x22 = F.conv2d(x, self.conv2.weight, self.conv2.bias, padding=d, dilation=d)
            x22 = self.bn_list2[i](x22)
            x21 += x22 * att2[:, i:i + 1].expand(shape)

        if self.downsample is not None:
            residual = self.downsample(residual)
        x = x21 + residual
        x = self.relu(x)
        return x


if __name__ == "__main__":
    torch.manual_seed(0)
    block = Autofocus(4, 8, 6)
    head = nn.Conv2d(6, 3, 1)
    optimizer = torch.optim.SGD(list(block.parameters()) + list(head.parameters()), lr=0.1)
    x, y = torch.randn(2, 4, 12, 12), torch.randint(0, 3, (2, 12, 12))
    loss = F.cross_entropy(head(block(x)), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    for name in ("convatt11", "convatt12", "convatt21", "convatt22", "conv1", "conv2"):
        g = getattr(block, name).weight.grad
        assert g is not None and g.abs().sum() > 0, name
    print("attention and main-branch convolutions all receive gradients")
