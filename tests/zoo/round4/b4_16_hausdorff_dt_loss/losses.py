import numpy as np
import torch
import torch.nn as nn


def _edt_to_other_class(mask):
    """Brute-force Euclidean distance from each pixel to the nearest pixel of the other class."""
    h, w = mask.shape
    ys, xs = np.mgrid[0:h, 0:w]
    coords = np.stack([ys.ravel(), xs.ravel()], axis=1).astype(np.float64)
    flat = mask.ravel()
    out = np.zeros(h * w, dtype=np.float64)
    fg, bg = coords[flat], coords[~flat]
    if len(fg) == 0 or len(bg) == 0:
        return out.reshape(h, w)
    d_fg = np.sqrt(((coords[flat][:, None, :] - bg[None]) ** 2).sum(-1)).min(1)
    d_bg = np.sqrt(((coords[~flat][:, None, :] - fg[None]) ** 2).sum(-1)).min(1)
    out[flat] = d_fg
    out[~flat] = d_bg
    return out.reshape(h, w)


class HausdorffDTLoss(nn.Module):
    """Distance-transform approximation of the Hausdorff distance (Karimi & Salcudean)."""

    def __init__(self, alpha=2.0):
        super().__init__()
        self.alpha = alpha

    @torch.no_grad()
    def distance_field(self, img):
        field = np.zeros_like(img)
        for b in range(img.shape[0]):
            fg = img[b, 0] > 0.5
            if fg.any():
                field[b, 0] = _edt_to_other_class(fg)
        return field

    def forward(self, pred, target):
        pred_dt = torch.from_numpy(self.distance_field(pred.detach().cpu().numpy())).float()
        target_dt = torch.from_numpy(self.distance_field(target.cpu().numpy())).float()
        pred_error = (pred - target) ** 2
        distance = pred_dt ** self.alpha + target_dt ** self.alpha
        return (pred_error * distance).mean()
