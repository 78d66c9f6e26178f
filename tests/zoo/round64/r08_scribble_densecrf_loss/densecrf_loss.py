import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Function


def gaussian_affinity(image, sigma_rgb, sigma_xy):
    """Dense bilateral affinity between all pixels of one small image (numpy)."""
    c, h, w = image.shape
    ys, xs = np.mgrid[0:h, 0:w]
    pos = np.stack([ys.ravel(), xs.ravel()], axis=1).astype(np.float64)
    rgb = image.reshape(c, -1).T.astype(np.float64)
    d_pos = ((pos[:, None, :] - pos[None, :, :]) ** 2).sum(-1)
    d_rgb = ((rgb[:, None, :] - rgb[None, :, :]) ** 2).sum(-1)
    W = np.exp(-d_pos / (2 * sigma_xy ** 2) - d_rgb / (2 * sigma_rgb ** 2))
    np.fill_diagonal(W, 0.0)
    return W


class DenseCRFLossFunction(Function):

    @staticmethod
    def forward(ctx, images, segmentations, sigma_rgb, sigma_xy):
        n, k, h, w = segmentations.shape
        ctx.N = n
        imgs = images.numpy()
        segs = segmentations.numpy().reshape(n, k, h * w)
        AS = np.zeros_like(segs)
        densecrf_loss = 0.0
        for i in range(n):
            W = gaussian_affinity(imgs[i], sigma_rgb, sigma_xy)
            AS[i] = segs[i] @ W.T
            densecrf_loss -= float(np.sum(segs[i] * AS[i]))
        densecrf_loss /= n
        ctx.AS = AS.reshape(n, k, h, w)
        return torch.tensor([densecrf_loss], requires_grad=True)

    @staticmethod
    def backward(ctx, grad_output):
        grad_segmentation = -2 * grad_output * torch.from_numpy(ctx.AS).float() / ctx.N
        return None, grad_segmentation, None, None


class DenseCRFLoss(nn.Module):
    def __init__(self, weight, sigma_rgb, sigma_xy):
        super().__init__()
        self.weight = weight
        self.sigma_rgb = sigma_rgb
        self.sigma_xy = sigma_xy

    def forward(self, images, segmentations):
        return self.weight * DenseCRFLossFunction.apply(images, segmentations, self.sigma_rgb, self.sigma_xy)
