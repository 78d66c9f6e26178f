"""Per-channel exposure model used for shadow removal: out = a * img + b, in NumPy and in torch."""
import numpy as np
import torch


def exposure_rgb(img, r_a, r_b, g_a, g_b, b_a, b_b):
    out = np.empty_like(img)
    out[0] = img[0] * r_a + r_b
    out[1] = img[1] * g_a + g_b
    out[2] = img[2] * b_a + b_b
    return np.clip(out, 0.0, 1.0)


def exposure_rgb_tensor(img, params):
    a = params[:, 0::2].view(-1, 3, 1, 1)
    b = params[:, 1::2].view(-1, 3, 1, 1)
    return (img * a + b).clamp(0.0, 1.0)
