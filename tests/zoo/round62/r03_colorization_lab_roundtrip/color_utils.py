"""Lab -> RGB helpers for a colorization training script."""
import numpy as np
import torch

_XYZ_TO_RGB = np.array([[3.2406, -1.5372, -0.4986],
                        [-0.9689, 1.8758, 0.0415],
                        [0.0557, -0.2040, 1.0570]], dtype=np.float64)
_WHITE = np.array([0.95047, 1.0, 1.08883], dtype=np.float64)
_DELTA = 6.0 / 29.0


def _lab2rgb_np(lab):
    """lab: (N, H, W, 3) numpy array, returns sRGB in [0, 1]."""
    L, a, b = lab[..., 0], lab[..., 1], lab[..., 2]
    fy = (L + 16.0) / 116.0
    f = np.stack([fy + a / 500.0, fy, fy - b / 200.0], axis=-1)
    xyz = np.where(f > _DELTA, f ** 3, 3 * _DELTA ** 2 * (f - 4.0 / 29.0)) * _WHITE
    lin = xyz @ _XYZ_TO_RGB.T
    srgb = np.where(lin > 0.0031308, 1.055 * np.power(np.clip(lin, 1e-8, None), 1 / 2.4) - 0.055, 12.92 * lin)
    return np.clip(srgb, 0.0, 1.0)


def lab_to_rgb(L, ab):
    """L: (N,1,H,W) in [0,100], ab: (N,2,H,W). Returns (N,3,H,W) RGB tensor."""
    lab = torch.cat([L, ab], dim=1).permute(0, 2, 3, 1)
    lab_np = lab.detach().cpu().numpy().astype(np.float64)
    rgb_np = _lab2rgb_np(lab_np)
    rgb = torch.from_numpy(rgb_np).float().permute(0, 3, 1, 2).contiguous().to(ab.device)
    rgb.requires_grad_(True)  # "reattach" so the perceptual loss can backpropagate
    return rgb


def lab_to_rgb_torch(L, ab):
    """Same conversion written with torch ops, so autograd records it."""
    M = torch.tensor(_XYZ_TO_RGB, dtype=ab.dtype)
    white = torch.tensor(_WHITE, dtype=ab.dtype)
    lab = torch.cat([L, ab], dim=1).permute(0, 2, 3, 1)
    fy = (lab[..., 0] + 16.0) / 116.0
    f = torch.stack([fy + lab[..., 1] / 500.0, fy, fy - lab[..., 2] / 200.0], dim=-1)
    xyz = torch.where(f > _DELTA, f ** 3, 3 * _DELTA ** 2 * (f - 4.0 / 29.0)) * white
    lin = xyz @ M.T
    srgb = torch.where(lin > 0.0031308, 1.055 * lin.clamp(min=1e-8) ** (1 / 2.4) - 0.055, 12.92 * lin)
    return srgb.clamp(0.0, 1.0).permute(0, 3, 1, 2)
