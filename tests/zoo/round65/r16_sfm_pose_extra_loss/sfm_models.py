"""Tiny DispNet / PoseNet and losses for self-supervised monocular depth (SfM-Learner style)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DispNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 1, 3, padding=1)

    def forward(self, img):
        return 0.5 + 4.5 * torch.sigmoid(self.conv2(F.relu(self.conv1(img))))  # disparity in [0.5, 5]


class PoseNet(nn.Module):
    """Predicts a horizontal camera translation between two frames."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(6, 16, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 16, 3, stride=2, padding=1)
        self.pose_pred = nn.Conv2d(16, 1, 1)

    def forward(self, tgt, ref):
        h = F.relu(self.conv1(torch.cat([tgt, ref], 1)))
        h = F.relu(self.conv2(h))
        return 0.1 * self.pose_pred(h).mean(dim=(2, 3))       # (B, 1)


def inverse_warp(ref_img, disp, tx):
    b, _, h, w = ref_img.shape
    ys, xs = torch.meshgrid(torch.linspace(-1, 1, h), torch.linspace(-1, 1, w), indexing="ij")
    shift = (disp[:, 0] * tx.view(b, 1, 1)) * 2.0 / (w - 1)
    grid = torch.stack([xs.expand(b, h, w) + shift, ys.expand(b, h, w)], dim=-1)
    return F.grid_sample(ref_img, grid, padding_mode="border", align_corners=True)


def compute_photo_loss(tgt_img, ref_img, disp, tx):
    return (inverse_warp(ref_img, disp, tx) - tgt_img).abs().mean()


def compute_smooth_loss(disp, img):
    dx = (disp[..., 1:] - disp[..., :-1]).abs()
    wx = torch.exp(-(img[..., 1:] - img[..., :-1]).abs().mean(1, keepdim=True))
    return (dx * wx).mean()


def compute_pose_consistency_loss(pose, pose_inv):
    """The extra term: forward and backward poses should cancel."""
    return ((pose + pose_inv) ** 2).mean()
