"""Tiny YOLO-style detector whose eval-mode head decodes boxes by writing into the sigmoid output."""
import torch
import torch.nn as nn


class DetectHead(nn.Module):
    def __init__(self, in_ch=8, num_anchors=3, num_outputs=6, stride=8.0):
        super().__init__()
        self.na, self.no = num_anchors, num_outputs
        self.conv = nn.Conv2d(in_ch, num_anchors * num_outputs, 1)
        self.stride = stride
        self.register_buffer("anchor_wh", torch.tensor([[10.0, 13.0], [16.0, 30.0], [33.0, 23.0]]))

    def _grid(self, ny, nx):
        yv, xv = torch.meshgrid(torch.arange(ny), torch.arange(nx), indexing="ij")
        return torch.stack((xv, yv), 2).view(1, 1, ny, nx, 2).float()

    def forward(self, feat):
        bs, _, ny, nx = feat.shape
        x = self.conv(feat).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        if self.training:
            return x
        y = x.sigmoid()
        y[..., 0:2] = (y[..., 0:2] * 2.0 - 0.5 + self._grid(ny, nx)) * self.stride
        wh = (y[..., 2:4] * 2.0) ** 2 * self.anchor_wh.view(1, self.na, 1, 1, 2)
        return torch.cat((y[..., 0:2], wh, y[..., 4:]), -1).view(bs, -1, self.no)


class DecodeOutOfPlace(DetectHead):
    """Same decode, assembled with torch.cat instead of writing into the sigmoid output."""

    def forward(self, feat):
        bs, _, ny, nx = feat.shape
        x = self.conv(feat).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()
        y = x.sigmoid()
        xy = (y[..., 0:2] * 2.0 - 0.5 + self._grid(ny, nx)) * self.stride
        wh = (y[..., 2:4] * 2.0) ** 2 * self.anchor_wh.view(1, self.na, 1, 1, 2)
        return torch.cat((xy, wh, y[..., 4:]), -1).view(bs, -1, self.no)


class TinyDetector(nn.Module):
    def __init__(self, head_cls=DetectHead):
        super().__init__()
        self.backbone = nn.Sequential(
            nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.SiLU(),
            nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.SiLU(),
            nn.Conv2d(8, 8, 3, stride=2, padding=1), nn.SiLU(),
        )
        self.head = head_cls()

    def forward(self, img):
        return self.head(self.backbone(img))
