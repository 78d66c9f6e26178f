"""
expect: none
dynamic: dismiss
source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/651

A user asked whether calling `set_requires_grad(net_D, False)` before the generator update stops the
generator from learning, since the generator needs the discriminator's gradient; the maintainer
answered it is a small speed-up and the generator still gets its gradients. This program rebuilds the
pix2pix-style update with the toggle in networks.py: D is frozen while G backpropagates through it and
re-enabled for its own step on `fake.detach()`. The asserts show G's parameters get non-zero gradients
through the frozen D, D's parameters get none during the G step, and both networks' weights change
over a few iterations.
"""
import torch
import torch.nn as nn

from networks import Generator, PatchDiscriminator, set_requires_grad

torch.manual_seed(0)


class Pix2PixModel:
    def __init__(self):
        self.netG = Generator()
        self.netD = PatchDiscriminator()
        self.criterionGAN = nn.BCEWithLogitsLoss()
        self.criterionL1 = nn.L1Loss()
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4, betas=(0.5, 0.999))

    def set_input(self, real_A, real_B):
        self.real_A, self.real_B = real_A, real_B

    def forward(self):
        self.fake_B = self.netG(self.real_A)

    def backward_D(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1).detach())
        pred_real = self.netD(torch.cat((self.real_A, self.real_B), 1))
        loss_D = 0.5 * (self.criterionGAN(pred_fake, torch.zeros_like(pred_fake))
                        + self.criterionGAN(pred_real, torch.ones_like(pred_real)))
        loss_D.backward()

    def backward_G(self):
        pred_fake = self.netD(torch.cat((self.real_A, self.fake_B), 1))
        loss_G = self.criterionGAN(pred_fake, torch.ones_like(pred_fake)) \
            + 10.0 * self.criterionL1(self.fake_B, self.real_B)
        loss_G.backward()

    def optimize_parameters(self):
        self.forward()
        set_requires_grad(self.netD, True)
        self.optimizer_D.zero_grad()
        self.backward_D()
        self.optimizer_D.step()
        set_requires_grad(self.netD, False)
        self.optimizer_G.zero_grad()
        self.netD.zero_grad(set_to_none=True)
        self.backward_G()
        g_grads = [p.grad for p in self.netG.parameters()]
        d_grads = [p.grad for p in self.netD.parameters()]
        self.optimizer_G.step()
        return g_grads, d_grads


model = Pix2PixModel()
real_A = torch.randn(2, 3, 16, 16)
real_B = torch.tanh(real_A.flip(-1))
model.set_input(real_A, real_B)
g0 = [p.detach().clone() for p in model.netG.parameters()]
d0 = [p.detach().clone() for p in model.netD.parameters()]
for _ in range(3):
    g_grads, d_grads = model.optimize_parameters()
    assert all(g is not None and g.abs().sum() > 0 for g in g_grads), "G learns through frozen D"
    assert all(g is None for g in d_grads), "D collects no gradient during the G step"
assert all(not torch.equal(a, b.detach()) for a, b in zip(g0, model.netG.parameters()))
assert all(not torch.equal(a, b.detach()) for a, b in zip(d0, model.netD.parameters()))
print("ok: freezing D with requires_grad=False while updating G is intended")
