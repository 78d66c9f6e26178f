"""DenseCRF regularised loss: forward in NumPy, hand-written backward."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function


def bilateral_affinity(image, sigma_rgb, sigma_xy):
    """Dense Gaussian kernel W (HW x HW) on position and colour, zero diagonal."""
    c, h, w = image.shape
    yy, xx = np.meshgrid(np.arange(h), np.arange(w), indexing="ij")
    pos = np.stack([yy.ravel(), xx.ravel()], 1).astype(np.float64)
    rgb = image.reshape(c, -1).T.astype(np.float64)
    d_xy = ((pos[:, None] - pos[None]) ** 2).sum(-1) / (2 * sigma_xy ** 2)
    d_rgb = ((rgb[:, None] - rgb[None]) ** 2).sum(-1) / (2 * sigma_rgb ** 2)
    aff = np.exp(-d_xy - d_rgb)
    np.fill_diagonal(aff, 0.0)
    return aff


class DenseCRFLossFunction(Function):
    @staticmethod
    def forward(ctx, images, segmentations, sigma_rgb, sigma_xy, rois):
        ctx.N, ctx.K, ctx.H, ctx.W = segmentations.shape
        rois = rois.unsqueeze(1).repeat(1, ctx.K, 1, 1)
        ctx.rois = rois
        segs = (segmentations * rois).numpy().astype(np.float64)
        imgs = images.numpy()
        AS = np.zeros_like(segs)
        loss = 0.0
        for n in range(ctx.N):
            aff = bilateral_affinity(imgs[n], sigma_rgb, sigma_xy)
            s = segs[n].reshape(ctx.K, -1)
            a_s = s @ aff  # (K, HW)
            AS[n] = a_s.reshape(ctx.K, ctx.H, ctx.W)
            loss -= float((s * a_s).sum())
        loss /= ctx.N
        ctx.AS = AS
        return torch.tensor([loss], requires_grad=True)

    @staticmethod
    def backward(ctx, grad_output):
        grad_seg = -2 * grad_output * torch.from_numpy(ctx.AS).float() / ctx.N
        grad_seg = grad_seg * ctx.rois
        return None, grad_seg, None, None, None


class DenseCRFLoss(nn.Module):
    def __init__(self, weight, sigma_rgb, sigma_xy):
        super().__init__()
        self.weight, self.sigma_rgb, self.sigma_xy = weight, sigma_rgb, sigma_xy

    def forward(self, images, segmentations, rois):
        return self.weight * DenseCRFLossFunction.apply(
            images, segmentations, self.sigma_rgb, self.sigma_xy, rois)
