"""
expect: GL001 61
dynamic: confirm
source: https://github.com/kaejong2/pix2pix-pytorch/blob/d218c2c26d98a293b41424f4f80c29c493fec5b0/train.py

A small pix2pix trainer (U-Net-ish generator, PatchGAN-ish discriminator). In the
original loop the generator step builds its adversarial term as
`pred_fake = self.D(fake.detach())`, the same call that the discriminator step
uses. Because the fake image is detached, the GAN term of the generator loss is a
constant with respect to the generator: only the L1 term moves G, and the backward
of the GAN term only fills D's .grad (which the D step then zeroes). Training runs,
losses are printed, nothing fails. This program trains one step with and without the
adversarial term and asserts that G's update is bit-for-bit identical (the GAN term
contributes no gradient to G), then shows that the fixed step (discriminator applied
to the non-detached fake) does give G an adversarial gradient.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(),
                                 nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())

    def forward(self, x):
        return self.net(x)


class Disc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(6, 8, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
                                 nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x):
        return self.net(x)


class Trainer:
    def __init__(self, G, D, lam_l1=100.0, fixed=False):
        self.G, self.D = G, D
        self.optG = torch.optim.SGD(G.parameters(), lr=0.1)
        self.optD = torch.optim.SGD(D.parameters(), lr=0.1)
        self.gan = nn.MSELoss()
        self.l1 = nn.L1Loss()
        self.lam = lam_l1
        self.fixed = fixed

    def generator_step(self, data, label, use_gan=True):
        output = self.G(data)
        self.optG.zero_grad()
        fake = torch.cat((output, data), dim=1)
        if self.fixed:
            pred_fake = self.D(fake)
        else:
            pred_fake = self.D(fake.detach())
        loss_gan = self.gan(pred_fake, torch.ones_like(pred_fake))
        loss_l1 = self.l1(output, label)
        loss_g = (loss_gan if use_gan else 0.0) + self.lam * loss_l1
        loss_g.backward()
        self.optG.step()
        return output

    def discriminator_step(self, data, label, output):
        self.optD.zero_grad()
        real = torch.cat((label, data), dim=1)
        fake = torch.cat((output, data), dim=1)
        pred_real = self.D(real)
        pred_fake = self.D(fake.detach())
        loss_d = 0.5 * (self.gan(pred_fake, torch.zeros_like(pred_fake))
                        + self.gan(pred_real, torch.ones_like(pred_real)))
        loss_d.backward()
        self.optD.step()


def g_after_one_step(fixed, use_gan):
    torch.manual_seed(1)
    G, D = Gen(), Disc()
    t = Trainer(G, D, fixed=fixed)
    g0 = torch.randn(2, 3, 8, 8)
    data, label = g0.tanh(), torch.randn(2, 3, 8, 8).tanh()
    t.generator_step(data, label, use_gan=use_gan)
    return torch.cat([p.detach().flatten() for p in G.parameters()])


# buggy loop: the adversarial term does not change G's update at all
with_gan = g_after_one_step(fixed=False, use_gan=True)
without_gan = g_after_one_step(fixed=False, use_gan=False)
assert torch.equal(with_gan, without_gan), "GAN term unexpectedly moved G"

# GAN term alone (no L1): the buggy step leaves every generator weight without a gradient
torch.manual_seed(2)
G, D = Gen(), Disc()
t = Trainer(G, D, lam_l1=0.0)
t.generator_step(torch.randn(2, 3, 8, 8), torch.randn(2, 3, 8, 8))
assert all(p.grad is None or p.grad.abs().max() == 0 for p in G.parameters())
assert any(p.grad is not None and p.grad.abs().max() > 0 for p in D.parameters())

# fixed loop: the adversarial term now reaches the generator
fixed_with = g_after_one_step(fixed=True, use_gan=True)
fixed_without = g_after_one_step(fixed=True, use_gan=False)
diff = (fixed_with - fixed_without).abs().max().item()
assert diff > 1e-6, diff

# a few full iterations of the buggy trainer run without any error
torch.manual_seed(3)
t = Trainer(Gen(), Disc())
for _ in range(3):
    x, y = torch.randn(2, 3, 8, 8).tanh(), torch.randn(2, 3, 8, 8).tanh()
    o = t.generator_step(x, y)
    t.discriminator_step(x, y, o)
print("r01 ok: generator update identical with/without GAN term; fixed diff=%.2e" % diff)
