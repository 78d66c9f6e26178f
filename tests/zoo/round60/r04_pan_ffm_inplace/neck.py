import torch
import torch.nn as nn
import torch.nn.functional as F


def upsample_add(x, y):
    return F.interpolate(x, size=y.shape[-2:], mode="nearest") + y


class DWBlock(nn.Module):
    """Depthwise conv -> pointwise conv -> BN -> ReLU."""

    def __init__(self, ch, stride):
        super().__init__()
        self.dw = nn.Conv2d(ch, ch, 3, stride, padding=1, groups=ch, bias=False)
        self.pw = nn.Conv2d(ch, ch, 1, bias=False)
        self.bn = nn.BatchNorm2d(ch)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(self.pw(self.dw(x))))


class FPEM(nn.Module):
    """Feature pyramid enhancement: one up-scale pass, one down-scale pass."""

    def __init__(self, ch):
        super().__init__()
        self.up = nn.ModuleList([DWBlock(ch, 1) for _ in range(3)])
        self.down = nn.ModuleList([DWBlock(ch, 2) for _ in range(3)])

    def forward(self, feats):
        x2, x3, x4, x5 = feats
        u4 = self.up[0](upsample_add(x5, x4))
        u3 = self.up[1](upsample_add(u4, x3))
        u2 = self.up[2](upsample_add(u3, x2))
        d3 = self.down[0](upsample_add(u3, u2))
        d4 = self.down[1](upsample_add(u4, u3))
        d5 = self.down[2](upsample_add(x5, u4))
        return u2, d3, d4, d5


class FFM(nn.Module):
    """Feature fusion: element-wise sum of the pyramids produced by every FPEM."""

    def forward(self, pyramids):
        fused = list(pyramids[0])
        for pyr in pyramids[1:]:
            for j in range(len(fused)):
                fused[j] += pyr[j]
        return fused


class FFMOutOfPlace(FFM):
    def forward(self, pyramids):
        fused = list(pyramids[0])
        for pyr in pyramids[1:]:
            fused = [f + p for f, p in zip(fused, pyr)]
        return fused


class FPEM_FFM_Head(nn.Module):
    def __init__(self, in_channels, ch=8, fpem_num=2, fuse=FFM):
        super().__init__()
        self.smooth = nn.ModuleList(
            [nn.Sequential(nn.Conv2d(c, ch, 1, bias=False), nn.BatchNorm2d(ch), nn.ReLU(inplace=True))
             for c in in_channels])
        self.fpems = nn.ModuleList([FPEM(ch) for _ in range(fpem_num)])
        self.ffm = fuse()
        self.out = nn.Conv2d(ch * 4, 1, 1)

    def forward(self, feats):
        base = [s(f) for s, f in zip(self.smooth, feats)]
        pyramids = []
        for fpem in self.fpems:
            base = fpem(base)
            pyramids.append(base)
        fused = self.ffm(pyramids)
        size = fused[0].shape[-2:]
        cat = torch.cat([fused[0]] + [F.interpolate(f, size=size, mode="nearest") for f in fused[1:]], 1)
        return self.out(cat)
