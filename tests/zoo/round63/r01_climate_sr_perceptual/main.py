"""
expect: GL001 losses.py:37
dynamic: confirm
source: https://github.com/xultaeculcis/climate-super-resolution/blob/3a92bc4d500ffff07450d62983d056bb9e6e12ba/climsr/losses/perceptual.py#L23

In this climate downscaling project (ESRGAN-style super-resolution of
temperature/elevation grids) the generator loss is a weighted sum of a pixel L1
term, an adversarial term and a VGG perceptual term.  The perceptual criterion
wraps its whole body in `torch.no_grad()`, so the distance between the feature
maps of the super-resolved field and the real field is computed off the record:
the term is a plain number that is added to the generator loss and contributes
no gradient at all.  Training still runs (the other terms carry gradient), so
nothing complains, but the perceptual weight silently does nothing.  The
reduction keeps the module in `losses.py` and trains a tiny upsampling
generator in this file.  The asserts show that the perceptual value has no
grad_fn, that the generator gradient with the perceptual term equals the
gradient of the pixel term alone, and that a perceptual-only run leaves the
weights unchanged; the fixed criterion (target under no_grad, generated field
on the record) gives a non-zero perceptual gradient and moves the weights.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import FrozenFeatures, FieldPerceptualLoss, FieldPerceptualLossFixed

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyUpsampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(1, 8, 3, padding=1)
        self.up = nn.Conv2d(8, 4, 3, padding=1)
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, lr):
        return self.shuffle(self.up(F.relu(self.head(lr))))


def generator_grads(gen, loss):
    gen.zero_grad()
    loss.backward()
    return [p.grad.detach().clone() for p in gen.parameters()]


def run(criterion_cls):
    torch.manual_seed(0)
    gen = TinyUpsampler()
    feats = FrozenFeatures()
    perceptual = criterion_cls(feats)
    lr = torch.randn(2, 1, 8, 8)
    hr = torch.randn(2, 1, 16, 16)

    sr = gen(lr)
    pixel = F.l1_loss(sr, hr)
    perc = perceptual(sr, hr)
    total = pixel + 0.5 * perc
    g_total = generator_grads(gen, total)

    sr = gen(lr)
    g_pixel = generator_grads(gen, F.l1_loss(sr, hr))
    same = all(torch.allclose(a, b) for a, b in zip(g_total, g_pixel))

    # train with the perceptual term only (what a user tuning its weight sees)
    before = [p.detach().clone() for p in gen.parameters()]
    opt = torch.optim.SGD(gen.parameters(), lr=0.1)
    for _ in range(5):
        opt.zero_grad()
        sr = gen(lr)
        loss = F.l1_loss(sr, hr) * 0.0 + perceptual(sr, hr)
        loss.backward()
        opt.step()
    moved = any(not torch.equal(b, p) for b, p in zip(before, gen.parameters()))
    return perc, same, moved


perc, same, moved = run(FieldPerceptualLoss)
assert perc.grad_fn is None and not perc.requires_grad
assert same, "perceptual term should add nothing to the generator gradient"
assert not moved, "perceptual-only training must not move the generator"

perc, same, moved = run(FieldPerceptualLossFixed)
assert perc.requires_grad
assert not same, "fixed perceptual term must change the generator gradient"
assert moved

print("r01 ok")
