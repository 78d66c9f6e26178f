"""RefineNet building blocks: residual conv unit, multi-resolution fusion, chained residual pooling."""
import torch.nn as nn


class ResidualConvUnit(nn.Module):
    def __init__(self, feats):
        super().__init__()
        self.conv1 = nn.Conv2d(feats, feats, 3, padding=1)
        self.conv2 = nn.Conv2d(feats, feats, 3, padding=1, bias=False)
        self.relu = nn.ReLU()

    def forward(self, x):
        out = self.conv1(self.relu(x))
        out = self.conv2(self.relu(out))
        return out + x


class MultiResolutionFusion(nn.Module):
    def __init__(self, out_feats, in_feats_hi, in_feats_lo):
        super().__init__()
        self.resolve0 = nn.Conv2d(in_feats_hi, out_feats, 3, padding=1, bias=False)
        self.resolve1 = nn.Sequential(nn.Conv2d(in_feats_lo, out_feats, 3, padding=1, bias=False),
                                      nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False))

    def forward(self, x_hi, x_lo):
        output = self.resolve0(x_hi)
        # in-place add on a conv output: the convolution did not save its output, so this is harmless
        output += self.resolve1(x_lo)
        return output


class ChainedResidualPool(nn.Module):
    def __init__(self, feats):
        super().__init__()
        self.relu = nn.ReLU(inplace=True)
        for i in range(1, 4):
            self.add_module(f"block{i}", nn.Sequential(
                nn.MaxPool2d(kernel_size=5, stride=1, padding=2),
                nn.Conv2d(feats, feats, 3, padding=1, bias=False)))

    def forward(self, x):
        x = self.relu(x)
        path = x
        for i in range(1, 4):
            path = getattr(self, f"block{i}")(path)
            x += path
        return x


class RefineBlock(nn.Module):
    def __init__(self, feats, crp_cls=ChainedResidualPool):
        super().__init__()
        self.rcu_hi = ResidualConvUnit(feats)
        self.rcu_lo = ResidualConvUnit(feats)
        self.mrf = MultiResolutionFusion(feats, feats, feats)
        self.crp = crp_cls(feats)
        self.output_conv = ResidualConvUnit(feats)

    def forward(self, x_hi, x_lo):
        fused = self.mrf(self.rcu_hi(x_hi), self.rcu_lo(x_lo))
        return self.output_conv(self.crp(fused))
