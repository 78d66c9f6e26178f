"""
expect: none
dynamic: dismiss
source: https://github.com/NVlabs/SPADE/issues/130

The question: in SPADE's compute_discriminator_loss the fake image is generated under no_grad,
detached, and then fake_image.requires_grad_() is called; why switch requires_grad back on after
detach()? This program rebuilds that discriminator step: the generator is meant to receive no
gradient from the discriminator loss, and the discriminator trains. The asserts show D's parameters
get non-zero gradients and change, G's parameters get none from the D loss (by design) and, in the
separate generator step, G does receive gradients and changes.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1), nn.Tanh())

    def forward(self, semantics, noise):
        return self.net(torch.cat([semantics, noise], dim=1))


class PatchD(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(4, 16, 4, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(16, 1, 3, padding=1))

    def forward(self, semantics, image):
        return self.net(torch.cat([semantics, image], dim=1))


class Pix2PixModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.netG, self.netD = Generator(), PatchD()

    def generate_fake(self, semantics):
        noise = torch.randn(semantics.shape[0], 3, *semantics.shape[2:])
        return self.netG(semantics, noise)

    def compute_discriminator_loss(self, semantics, real_image):
        with torch.no_grad():
            fake_image = self.generate_fake(semantics)
            fake_image = fake_image.detach()
            fake_image.requires_grad_()
        pred_fake = self.netD(semantics, fake_image)
        pred_real = self.netD(semantics, real_image)
        return F.relu(1 + pred_fake).mean() + F.relu(1 - pred_real).mean()

    def compute_generator_loss(self, semantics, real_image):
        fake_image = self.generate_fake(semantics)
        return -self.netD(semantics, fake_image).mean() + 10 * F.l1_loss(fake_image, real_image)


torch.manual_seed(0)
model = Pix2PixModel()
opt_d = torch.optim.Adam(model.netD.parameters(), lr=2e-4, betas=(0.0, 0.9))
opt_g = torch.optim.Adam(model.netG.parameters(), lr=1e-4, betas=(0.0, 0.9))
semantics, real = torch.randn(2, 1, 16, 16), torch.rand(2, 3, 16, 16) * 2 - 1

d0 = model.netD.net[0].weight.detach().clone()
g0 = model.netG.net[0].weight.detach().clone()

opt_d.zero_grad()
d_loss = model.compute_discriminator_loss(semantics, real)
d_loss.backward()
assert all(p.grad is not None for p in model.netD.parameters())
assert all(p.grad.abs().sum() > 0 for n, p in model.netD.named_parameters() if n.endswith("weight"))
assert all(p.grad is None for p in model.netG.parameters())
opt_d.step()
assert not torch.equal(d0, model.netD.net[0].weight)

opt_g.zero_grad()
model.compute_generator_loss(semantics, real).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in model.netG.parameters())
opt_g.step()
assert not torch.equal(g0, model.netG.net[0].weight)
print("ok: D trains on the detached fake, G trains from its own loss")
