import torch
import torch.nn as nn
import torch.nn.functional as F


class FlowDecoder(nn.Module):
    """One pyramid level: predicts a 2-channel flow residual from features."""

    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.LeakyReLU(0.1),
                                  nn.Conv2d(ch, 2, 3, padding=1))

    def forward(self, feats):
        return self.body(feats)


class ParticleFlowNet(nn.Module):
    """Unsupervised particle-image-velocimetry net: encoder, three flow
    decoders, and a small refinement head."""

    def __init__(self, ch=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(2, ch, 3, padding=1), nn.LeakyReLU(0.1))
        self.decoders = nn.ModuleList([FlowDecoder(ch) for _ in range(3)])
        self.refine = nn.Conv2d(ch, 2, 3, padding=1)

    def estimate_flow(self, feats):
        flow = 0
        with torch.no_grad():  # added "to save memory" around the three estimators
            for dec in self.decoders:
                flow = flow + dec(feats)
        return flow

    def forward(self, img1, img2):
        feats = self.encoder(torch.cat([img1, img2], dim=1))
        flow = self.estimate_flow(feats)
        return flow + 0.1 * self.refine(feats)


def warp(img, flow):
    """Backward-warp img by flow (pixels) with bilinear sampling."""
    b, _, h, w = img.shape
    ys, xs = torch.meshgrid(torch.arange(h, dtype=img.dtype), torch.arange(w, dtype=img.dtype),
                            indexing="ij")
    gx = (xs + flow[:, 0]) / (w - 1) * 2 - 1
    gy = (ys + flow[:, 1]) / (h - 1) * 2 - 1
    grid = torch.stack([gx, gy], dim=-1)
    return F.grid_sample(img, grid, align_corners=True)


def unsupervised_loss(img1, img2, flow):
    photometric = (warp(img2, flow) - img1).abs().mean()
    smooth = (flow[..., 1:, :] - flow[..., :-1, :]).abs().mean() + \
             (flow[..., 1:] - flow[..., :-1]).abs().mean()
    return photometric + 0.05 * smooth
