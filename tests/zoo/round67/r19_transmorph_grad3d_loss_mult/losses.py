import torch
import torch.nn as nn
import torch.nn.functional as F


class NCC(nn.Module):
    """Global normalized cross-correlation between warped moving image and fixed image (negated)."""

    def __init__(self, eps=1e-5):
        super().__init__()
        self.eps = eps

    def forward(self, warped, fixed):
        w = warped.flatten(1)
        f = fixed.flatten(1)
        w = w - w.mean(dim=1, keepdim=True)
        f = f - f.mean(dim=1, keepdim=True)
        cc = (w * f).sum(1) / torch.sqrt((w * w).sum(1) * (f * f).sum(1) + self.eps)
        return -cc.mean()


class Grad3d(nn.Module):
    """Smoothness penalty on a dense 3-D displacement field (finite differences)."""

    def __init__(self, penalty="l1", loss_mult=None):
        super().__init__()
        self.penalty = penalty
        self.loss_mult = loss_mult

    def forward(self, flow, fixed=None):
        d_d = torch.abs(flow[:, :, 1:, :, :] - flow[:, :, :-1, :, :])
        d_h = torch.abs(flow[:, :, :, 1:, :] - flow[:, :, :, :-1, :])
        d_w = torch.abs(flow[:, :, :, :, 1:] - flow[:, :, :, :, :-1])
        if self.penalty == "l2":
            d_d = d_d * d_d
            d_h = d_h * d_h
            d_w = d_w * d_w
        total = torch.mean(d_d) + torch.mean(d_h) + torch.mean(d_w)
        reg = total / 3.0
        if self.loss_mult is not None:
            # in-place scaling of the result of a division by a constant: the
            # division saves nothing that this edit touches
            reg *= self.loss_mult
        return reg


class SpatialTransformer(nn.Module):
    def __init__(self, size):
        super().__init__()
        vectors = [torch.arange(0, s, dtype=torch.float32) for s in size]
        grid = torch.stack(torch.meshgrid(vectors, indexing="ij")).unsqueeze(0)
        self.register_buffer("grid", grid)
        self.size = size

    def forward(self, src, flow):
        loc = self.grid + flow
        parts = []
        for i, s in enumerate(self.size):
            parts.append(2 * (loc[:, i] / (s - 1) - 0.5))
        loc = torch.stack(parts[::-1], dim=-1)  # grid_sample wants (x, y, z)
        return F.grid_sample(src, loc, align_corners=True, mode="bilinear")


class TinyRegNet(nn.Module):
    def __init__(self, size, ch=8):
        super().__init__()
        self.enc = nn.Sequential(
            nn.Conv3d(2, ch, 3, padding=1), nn.LeakyReLU(0.2),
            nn.Conv3d(ch, ch, 3, padding=1), nn.LeakyReLU(0.2),
        )
        self.flow_head = nn.Conv3d(ch, 3, 3, padding=1)
        nn.init.normal_(self.flow_head.weight, 0.0, 1e-5)
        nn.init.zeros_(self.flow_head.bias)
        self.stn = SpatialTransformer(size)

    def forward(self, moving, fixed):
        h = self.enc(torch.cat([moving, fixed], dim=1))
        flow = self.flow_head(h)
        warped = self.stn(moving, flow)
        return warped, flow
