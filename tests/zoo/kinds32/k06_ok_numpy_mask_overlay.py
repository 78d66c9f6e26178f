"""
expect: none
dynamic: dismiss
source: kinds check 32, kind 3

Visualisation of a segmentation mask: a helper tints each RGB channel of a
NumPy image in place where the mask is set. It works on plain arrays made
from detached predictions, so no autograd graph is involved.
"""
import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)


def overlay_mask(img, mask, color, alpha=0.4):
    for c in range(3):
        img[:, :, c] = img[:, :, c] * (1 - alpha * mask) + alpha * mask * color[c]
    return img


seg = nn.Conv2d(3, 1, 3, padding=1)
image = torch.rand(1, 3, 24, 24)
with torch.no_grad():
    prob = torch.sigmoid(seg(image))[0, 0]
mask = (prob > 0.5).numpy().astype(np.float32)
canvas = image[0].permute(1, 2, 0).numpy().copy()
orig = canvas.copy()
out = overlay_mask(canvas, mask, color=(1.0, 0.0, 0.0))

assert out is canvas
assert np.allclose(out[mask == 0], orig[mask == 0])
if mask.sum() > 0:
    assert not np.allclose(out[mask == 1], orig[mask == 1])
loss = seg(image).mean()
loss.backward()
assert seg.weight.grad is not None
print("ok")
