"""
expect: GL001 perceptual.py:23
dynamic: confirm
source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/822

A user shared a recipe for adding a VGG perceptual loss to CycleGAN's backward_G,
but wrapped the whole block, including the generators' cycle reconstructions, in
torch.no_grad(). The perceptual term is then a constant: it adds to the printed loss
but sends no gradient to either generator. The helper in perceptual.py reproduces
that; the asserts show that a backward of the perceptual term alone leaves the
generators without gradients, while the fixed helper (only real-image features
under no_grad) does give them gradients.
"""
import torch
import torch.nn as nn

from perceptual import FeatureNet, cycle_perceptual_loss, cycle_perceptual_loss_fixed

torch.manual_seed(0)
torch.set_num_threads(1)


def make_gen():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())


class CycleModel:
    def __init__(self):
        self.g_ab = make_gen()
        self.g_ba = make_gen()
        self.vgg = FeatureNet().eval()
        params = list(self.g_ab.parameters()) + list(self.g_ba.parameters())
        self.opt = torch.optim.Adam(params, lr=1e-3)

    def backward_g(self, real_a, real_b, lambda_perc=1.0):
        fake_b = self.g_ab(real_a)
        idt = (fake_b - real_b).abs().mean() * 0.0  # stand-in for the GAN/cycle terms
        perc = cycle_perceptual_loss(self.vgg, self.g_ab, self.g_ba, real_a, real_b)
        loss = idt + lambda_perc * perc
        loss.backward()
        return perc


model = CycleModel()
real_a = torch.randn(2, 3, 16, 16)
real_b = torch.randn(2, 3, 16, 16)

for _ in range(3):
    model.opt.zero_grad()
    perc = model.backward_g(real_a, real_b)
    model.opt.step()

# The perceptual term has no graph at all.
assert not perc.requires_grad
model.opt.zero_grad()
model.backward_g(real_a, real_b, lambda_perc=1.0)
g_ab_grad = sum(p.grad.abs().sum() for p in model.g_ab.parameters())
g_ba_grad = [p.grad for p in model.g_ba.parameters()]
# The only live term is multiplied by zero, so nothing reaches the generators.
assert g_ab_grad == 0
assert all(g is None for g in g_ba_grad)

# Fixed helper: gradients reach both generators.
fixed = cycle_perceptual_loss_fixed(model.vgg, model.g_ab, model.g_ba, real_a, real_b)
fixed.backward()
assert sum(p.grad.abs().sum() for p in model.g_ba.parameters()) > 0
assert sum(p.grad.abs().sum() for p in model.g_ab.parameters()) > 0
print("ok")
