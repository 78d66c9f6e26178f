"""
expect: none
dynamic: dismiss
source: https://github.com/wangqifan/StyleTransfer/blob/HEAD/StyleLoss.py

Gatys-style transfer where each StyleLoss layer scales its Gram matrix in place
(G.mul_(weight)) and exposes its own backward(retain_graph=True); the driver calls
every loss's backward in turn on a shared graph. The in-place mul_ hits the output
of a scalar div, which no backward node saves, and retain_graph is only needed
for the several backwards of one iteration; the graph is rebuilt from the image
each step. The asserts show the image gradient equals a single backward of the
summed loss built out of place, the image is updated, and no error is raised.
"""
import torch
import torch.nn as nn
from losses import StyleLoss

torch.manual_seed(0)
torch.set_num_threads(1)

features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                         nn.Conv2d(8, 8, 3, padding=1), nn.ReLU())
for p in features.parameters():
    p.requires_grad_(False)

style_img = torch.rand(1, 3, 16, 16)


def build(style_weight):
    layers, losses = [], []
    x = style_img
    for i, layer in enumerate(features):
        layers.append(layer)
        x = layer(x)
        if isinstance(layer, nn.ReLU):
            sl = StyleLoss(x, style_weight)
            layers.append(sl)
            losses.append(sl)
    return nn.Sequential(*layers), losses


net, style_losses = build(1000.0)
image = torch.rand(1, 3, 16, 16, requires_grad=True)
opt = torch.optim.SGD([image], lr=0.05)


def step():
    opt.zero_grad()
    net(image)
    total = 0.0
    for sl in style_losses:
        total = total + sl.backward().item()
    return total


# reference gradient: out-of-place weighting, one backward of the sum
def reference_grad(img):
    img = img.detach().clone().requires_grad_(True)
    x, total, k = img, 0.0, 0
    for layer in features:
        x = layer(x)
        if isinstance(layer, nn.ReLU):
            b, c, h, w = x.shape
            f = x.view(b * c, h * w)
            g = torch.mm(f, f.t()) / (b * c * h * w) * 1000.0
            total = total + nn.functional.mse_loss(g, style_losses[k].target)
            k += 1
    total.backward()
    return img.grad


ref = reference_grad(image)
start = image.detach().clone()
first = step()
assert torch.allclose(image.grad, ref, rtol=1e-4, atol=1e-8), "per-loss backward differs"
opt.step()
for _ in range(5):
    last = step()
    opt.step()
assert not torch.equal(image.detach(), start)
assert last < first, (first, last)
print("ok", first, last)
