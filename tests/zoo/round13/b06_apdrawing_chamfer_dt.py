"""
expect: GL002 45
dynamic: confirm
source: https://github.com/yiranran/APDrawingGAN/issues/22

The report: APDrawingGAN's distance-transform (chamfer) loss has two halves, and the second one,
loss_G_chamfer2, has no grad_fn; the reporter asks what it is for. This program rebuilds the two
halves for a line-drawing generator: chamfer1 weights the generated strokes by the distance
transform of the real drawing (a deliberate constant), chamfer2 evaluates the distance transform
of the *generated* drawing, computed in numpy and brought back with torch.from_numpy, at the real
strokes. The asserts show chamfer2 has requires_grad False and the generator's gradient is the
same with its weight 0 or 10, so the term only adds a number; chamfer1 does train the generator.
"""
import numpy as np
import torch
import torch.nn as nn


def distance_transform(mask):
    """Euclidean distance of every pixel to the nearest True pixel (brute force, small images)."""
    h, w = mask.shape
    ys, xs = np.nonzero(mask)
    if len(ys) == 0:
        return np.full((h, w), float(h + w), dtype=np.float32)
    gy, gx = np.mgrid[0:h, 0:w]
    d = np.sqrt((gy[..., None] - ys) ** 2 + (gx[..., None] - xs) ** 2)
    return d.min(-1).astype(np.float32)


class DrawingGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, photo):
        return torch.tanh(self.net(photo))  # -1 = ink, +1 = paper


def chamfer_losses(fake_B, real_B):
    real_ink = (real_B < 0)[0, 0]
    dt_real = torch.from_numpy(distance_transform(real_ink.numpy()))
    fake_ink_soft = (1 - fake_B[0, 0]) / 2
    loss_chamfer1 = (fake_ink_soft * dt_real).sum() / fake_ink_soft.sum().clamp_min(1e-3)
    fake_ink = (fake_B.detach() < 0)[0, 0].numpy()
    dt_fake = torch.from_numpy(distance_transform(fake_ink))
    loss_chamfer2 = (real_ink.float() * dt_fake).sum() / real_ink.float().sum()
    return loss_chamfer1, loss_chamfer2


def g_grad(w2, w1=1.0):
    torch.manual_seed(0)
    G = DrawingGenerator()
    photo = torch.randn(1, 1, 12, 12)
    real_B = torch.ones(1, 1, 12, 12)
    real_B[0, 0, 3:9, 5] = -1
    real_B[0, 0, 8, 2:10] = -1
    fake_B = G(photo)
    c1, c2 = chamfer_losses(fake_B, real_B)
    loss = ((fake_B - real_B) ** 2).mean() + w1 * c1 + w2 * c2
    loss.backward()
    return torch.cat([p.grad.flatten() for p in G.parameters()]), c2


g10, c2 = g_grad(10.0)
g0, _ = g_grad(0.0)
assert not c2.requires_grad and c2.grad_fn is None, "chamfer2 has no grad_fn"
assert c2.item() > 0
assert torch.allclose(g10, g0), "chamfer2 adds a number, no gradient"
h1, _ = g_grad(0.0, w1=1.0)
h0, _ = g_grad(0.0, w1=0.0)
assert not torch.allclose(h1, h0), "chamfer1 (constant DT weights on the fake) does reach G"
print("ok: the numpy distance transform of the fake makes chamfer2 a constant term")
