"""Pretrained-style flow estimator script, importable for its `estimate` helper."""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_grad_enabled(False)  # this is an inference script: skip autograd bookkeeping

torch.backends.cudnn.enabled = True


class Network(nn.Module):
    """A two-level coarse-to-fine flow network (stand-in for PWC-Net)."""

    def __init__(self):
        super().__init__()
        self.moduleExtractor = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.LeakyReLU(0.1),
                                             nn.Conv2d(8, 8, 3, padding=1), nn.LeakyReLU(0.1))
        self.moduleCoarse = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.LeakyReLU(0.1),
                                          nn.Conv2d(16, 2, 3, padding=1))
        self.moduleRefiner = nn.Sequential(nn.Conv2d(18, 16, 3, padding=1), nn.LeakyReLU(0.1),
                                           nn.Conv2d(16, 2, 3, padding=1))

    def forward(self, tenFirst, tenSecond):
        f1 = self.moduleExtractor(tenFirst)
        f2 = self.moduleExtractor(tenSecond)
        coarse = self.moduleCoarse(torch.cat([F.avg_pool2d(f1, 2), F.avg_pool2d(f2, 2)], 1))
        up = F.interpolate(coarse, scale_factor=2, mode='bilinear', align_corners=False)
        return up + self.moduleRefiner(torch.cat([f1, f2, up], 1))


netNetwork = Network().eval()


def estimate(tenFirst, tenSecond):
    intHeight, intWidth = tenFirst.shape[2], tenFirst.shape[3]
    intPreH = int(64 * ((intHeight + 63) // 64))
    intPreW = int(64 * ((intWidth + 63) // 64))
    tenPreFirst = F.interpolate(tenFirst, size=(intPreH, intPreW), mode='bilinear', align_corners=False)
    tenPreSecond = F.interpolate(tenSecond, size=(intPreH, intPreW), mode='bilinear', align_corners=False)
    tenFlow = 20.0 * F.interpolate(netNetwork(tenPreFirst, tenPreSecond), size=(intHeight, intWidth),
                                   mode='bilinear', align_corners=False)
    scale = torch.tensor([intWidth / intPreW, intHeight / intPreH]).view(1, 2, 1, 1)
    return tenFlow * scale
