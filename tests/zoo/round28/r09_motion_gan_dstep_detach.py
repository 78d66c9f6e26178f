"""
expect: none
dynamic: dismiss
source: https://github.com/DeepMotionEditing/deep-motion-editing/issues/90

Question on deep-motion-editing: why does backward_D_basic call netD(fake.detach())
- won't that stop the adversarial signal reaching the generator? The maintainer:
the detach is only in the discriminator step; the generator step feeds fake without
detach. This motion-retargeting-style GAN (1-D temporal convs over joint rotations)
keeps that split in a model class. Asserts: the D step leaves the generator's grads
untouched and gives D the same gradient as an undetached pass, the G step reaches
the generator, and both networks change over a few iterations.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

JOINTS, FRAMES = 6, 16


class Retargeter(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(JOINTS * 4, 32, 3, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv1d(32, JOINTS * 4, 3, padding=1))

    def forward(self, motion):
        return motion + self.net(motion)


class MotionDisc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(JOINTS * 4, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv1d(16, 1, 4, stride=2, padding=1))

    def forward(self, motion):
        return self.net(motion)


class GANModel:
    def __init__(self):
        self.netG, self.netD = Retargeter(), MotionDisc()
        self.opt_G = torch.optim.Adam(self.netG.parameters(), lr=2e-4)
        self.opt_D = torch.optim.Adam(self.netD.parameters(), lr=2e-4)

    @staticmethod
    def gan_loss(pred, is_real):
        return F.mse_loss(pred, torch.full_like(pred, 1.0 if is_real else 0.0))

    def backward_D_basic(self, netD, real, fake):
        loss_real = self.gan_loss(netD(real), True)
        loss_fake = self.gan_loss(netD(fake.detach()), False)
        loss_D = (loss_real + loss_fake) * 0.5
        loss_D.backward()
        return loss_D

    def backward_G(self, fake):
        loss_G = self.gan_loss(self.netD(fake), True)
        loss_G.backward()
        return loss_G

    def optimize_parameters(self, src, real, record=None):
        fake = self.netG(src)
        self.opt_G.zero_grad()
        self.backward_G(fake)
        g_grad = sum(p.grad.abs().sum() for p in self.netG.parameters())
        self.opt_G.step()

        self.opt_D.zero_grad()
        self.opt_G.zero_grad()
        self.backward_D_basic(self.netD, real, fake)
        if record is not None:
            record["g_grads_after_D"] = [p.grad for p in self.netG.parameters()]
            record["d_grads"] = [p.grad.clone() for p in self.netD.parameters()]
        self.opt_D.step()
        return g_grad


model = GANModel()
src = torch.randn(4, JOINTS * 4, FRAMES)
real = torch.randn(4, JOINTS * 4, FRAMES)
g0 = [p.detach().clone() for p in model.netG.parameters()]
d0 = [p.detach().clone() for p in model.netD.parameters()]

rec = {}
g_grad = model.optimize_parameters(src, real, record=rec)
assert g_grad > 0                                              # G step trains G
assert all(g is None for g in rec["g_grads_after_D"])          # D step never touches G

# D's gradient is the same as if fake had not been detached
fake = model.netG(src)
model.netD.zero_grad()
(0.5 * (GANModel.gan_loss(model.netD(real), True) + GANModel.gan_loss(model.netD(fake), False))).backward()
d_ref = [p.grad.clone() for p in model.netD.parameters()]
model.netD.zero_grad()
model.backward_D_basic(model.netD, real, fake)
assert all(torch.allclose(a.grad, b) for a, b in zip(model.netD.parameters(), d_ref))

for _ in range(3):
    model.optimize_parameters(src, real)
assert any(not torch.equal(a, b) for a, b in zip(g0, model.netG.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(d0, model.netD.parameters()))
print("ok: detach only in the D step; both nets train")
