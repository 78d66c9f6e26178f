"""
expect: none
dynamic: dismiss
source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/344

The question: optimize_parameters() calls `set_requires_grad(netD, False)` before the generator
update and switches it back before the discriminator update; "how do we backward and update netG
with requires_grad(netD) == False?" The maintainer answers that freezing D's parameters only
stops gradients being accumulated into them, the gradient still flows through D to G. This
program rebuilds a pix2pix-style model with that toggle on a helper. The asserts show the
generator's gradient is the same as with D left trainable, D's weights get no gradient in the G
step and do in the D step, and both networks change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Pix2PixModel:
    def __init__(self, freeze_d_in_g_step=True):
        self.netG = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())
        self.netD = nn.Sequential(nn.Conv2d(6, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.freeze_d_in_g_step = freeze_d_in_g_step

    @staticmethod
    def set_requires_grad(nets, requires_grad=False):
        for net in nets if isinstance(nets, list) else [nets]:
            for param in net.parameters():
                param.requires_grad = requires_grad

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1).detach())
        pred_real = self.netD(torch.cat((self.real_A, self.real_B), 1))
        loss_D = 0.5 * (F.mse_loss(pred_fake, torch.zeros_like(pred_fake)) + F.mse_loss(pred_real, torch.ones_like(pred_real)))
        loss_D.backward()

    def backward_G(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1))
        loss_G = F.mse_loss(pred_fake, torch.ones_like(pred_fake)) + 100.0 * F.l1_loss(self.fake_B, self.real_B)
        loss_G.backward()

    def optimize_parameters(self, real_A, real_B):
        self.real_A, self.real_B = real_A, real_B
        self.forward()
        self.set_requires_grad(self.netD, True)
        self.optimizer_D.zero_grad()
        self.backward_D()
        d_grad_ok = all(p.grad is not None for p in self.netD.parameters())
        self.optimizer_D.step()
        self.set_requires_grad(self.netD, not self.freeze_d_in_g_step)
        self.optimizer_G.zero_grad()
        for p in self.netD.parameters():
            p.grad = None
        self.backward_G()
        g_grad = torch.cat([p.grad.flatten().clone() for p in self.netG.parameters()])
        d_after_g = [p.grad for p in self.netD.parameters()]
        self.optimizer_G.step()
        return g_grad, d_grad_ok, d_after_g


def run(freeze):
    torch.manual_seed(0)
    model = Pix2PixModel(freeze_d_in_g_step=freeze)
    a, b = torch.randn(2, 3, 8, 8), torch.rand(2, 3, 8, 8) * 2 - 1
    g0, d0 = model.netG[0].weight.detach().clone(), model.netD[0].weight.detach().clone()
    out = model.optimize_parameters(a, b)
    model.optimize_parameters(a, b)
    return out, model, g0, d0


(g_frozen, d_ok, d_after_g), model, g0, d0 = run(freeze=True)
(g_live, _, d_after_live), _, _, _ = run(freeze=False)
assert torch.allclose(g_frozen, g_live), "G's gradient does not depend on freezing D"
assert d_ok and all(g is None for g in d_after_g) and all(g is not None for g in d_after_live)
assert not torch.equal(g0, model.netG[0].weight) and not torch.equal(d0, model.netD[0].weight)
print("ok: requires_grad switched off on D's parameters still lets G train through D")
