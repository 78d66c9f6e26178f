import torch
from torch import nn


class RGBRenderer(nn.Module):
    def forward(self, rgb, weights):
        return (weights[..., None] * rgb).sum(dim=-2)


class DepthRenderer(nn.Module):
    """Expected termination depth along each ray."""

    def forward(self, weights, t_vals):
        with torch.no_grad():
            depth = (weights * t_vals).sum(dim=-1)
            depth = depth / (weights.sum(dim=-1) + 1e-6)
        return depth


class DepthRendererFixed(nn.Module):
    def forward(self, weights, t_vals):
        depth = (weights * t_vals).sum(dim=-1)
        return depth / (weights.sum(dim=-1) + 1e-6)


def composite_weights(density, deltas):
    alpha = 1.0 - torch.exp(-density * deltas)
    trans = torch.cumprod(
        torch.cat([torch.ones_like(alpha[..., :1]), 1.0 - alpha[..., :-1] + 1e-10], dim=-1), dim=-1
    )
    return alpha * trans
