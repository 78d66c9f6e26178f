"""Tiny Gaussian-splatting core: project 3D Gaussians into a camera and splat
them into an image.

`_ext_project_fwd` / `_ext_project_bwd` play the part of the compiled
projection kernels of a splatting library: the forward kernel computes its
outputs outside autograd, and the backward kernel is only reached when the
forward is wrapped in the autograd Function `_ProjectGaussians`.
"""
from dataclasses import dataclass
from typing import Optional, Tuple

import torch


@dataclass
class Camera:
    intrinsics: Tuple[float, float, float, float]  # fx, fy, cx, cy
    k1: Optional[float] = None                      # radial distortion, None = pinhole
    height: int = 16
    width: int = 16


def _projection_math(means, log_scales, intrinsics, k1):
    fx, fy, cx, cy = intrinsics
    z = means[:, 2:3]
    xy = means[:, :2] / z
    if k1 is not None:
        r2 = (xy * xy).sum(dim=1, keepdim=True)
        xy = xy * (1.0 + k1 * r2)
    uv = torch.cat([fx * xy[:, :1] + cx, fy * xy[:, 1:] + cy], dim=1)
    radius = fx * torch.exp(log_scales) / z[:, 0]
    return uv, radius


@torch.no_grad()
def _ext_project_fwd(means, log_scales, intrinsics, k1):
    """Forward kernel: returns 2D means and pixel radii, records nothing."""
    return _projection_math(means, log_scales, intrinsics, k1)


def _ext_project_bwd(means, log_scales, intrinsics, k1, grad_uv, grad_radius):
    """Backward kernel: vector-Jacobian product of the projection."""
    with torch.enable_grad():
        m = means.detach().requires_grad_(True)
        s = log_scales.detach().requires_grad_(True)
        uv, radius = _projection_math(m, s, intrinsics, k1)
        gm, gs = torch.autograd.grad((uv, radius), (m, s), (grad_uv, grad_radius))
    return gm, gs


class _ProjectGaussians(torch.autograd.Function):
    @staticmethod
    def forward(ctx, means, log_scales, intrinsics, k1):
        ctx.save_for_backward(means, log_scales)
        ctx.intrinsics, ctx.k1 = intrinsics, k1
        return _ext_project_fwd(means, log_scales, intrinsics, k1)

    @staticmethod
    def backward(ctx, grad_uv, grad_radius):
        means, log_scales = ctx.saved_tensors
        gm, gs = _ext_project_bwd(means, log_scales, ctx.intrinsics, ctx.k1,
                                  grad_uv, grad_radius)
        return gm, gs, None, None


def project_gaussians(means, log_scales, camera, distorted_via_autograd=False):
    if camera.k1 is None:
        return _ProjectGaussians.apply(means, log_scales, camera.intrinsics, None)
    # distorted camera model
    if distorted_via_autograd:
        return _ProjectGaussians.apply(means, log_scales, camera.intrinsics, camera.k1)
    return _ext_project_fwd(means, log_scales, camera.intrinsics, camera.k1)


def rasterize(uv, radius, colors, camera):
    ys, xs = torch.meshgrid(torch.arange(camera.height) + 0.5,
                            torch.arange(camera.width) + 0.5, indexing="ij")
    pix = torch.stack([xs, ys], dim=-1).reshape(-1, 1, 2)
    d2 = ((pix - uv[None]) ** 2).sum(-1)
    weights = torch.exp(-0.5 * d2 / radius[None] ** 2)
    return (weights @ colors).reshape(camera.height, camera.width, 3)


def render(means, log_scales, colors, camera, distorted_via_autograd=False):
    uv, radius = project_gaussians(means, log_scales, camera, distorted_via_autograd)
    return rasterize(uv, radius, colors, camera)
