"""
expect: GL003 39
dynamic: confirm
source: kind B

A small GAN wrapper keeps the last generated batch on `self` (cut from the graph) so the
discriminator step can reuse it; its generator step then switches requires_grad on that stored
batch and scores it with the discriminator, which is the only path to the generator. The asserts
show the generator's .grad stays None and its weights never move, while a fixed step that
regenerates the batch gives the generator a gradient and trains it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(3)


class TinyGAN:
    def __init__(self, z_dim=4, x_dim=6):
        self.z_dim = z_dim
        self.gen = nn.Sequential(nn.Linear(z_dim, 16), nn.ReLU(), nn.Linear(16, x_dim))
        self.disc = nn.Sequential(nn.Linear(x_dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
        self.g_opt = torch.optim.Adam(self.gen.parameters(), lr=1e-3)
        self.d_opt = torch.optim.Adam(self.disc.parameters(), lr=1e-3)
        self.last_fake = None

    def discriminator_step(self, real):
        z = torch.randn(real.size(0), self.z_dim)
        self.last_fake = self.gen(z).detach()
        d_real, d_fake = self.disc(real), self.disc(self.last_fake)
        loss = F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real)) + \
            F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake))
        self.d_opt.zero_grad()
        loss.backward()
        self.d_opt.step()

    def generator_step(self):
        fake = self.last_fake.requires_grad_()
        d_fake = self.disc(fake)
        loss = F.binary_cross_entropy_with_logits(d_fake, torch.ones_like(d_fake))
        self.g_opt.zero_grad()
        loss.backward()
        self.g_opt.step()
        return loss.item()


real = torch.randn(8, 6) + 2.0
gan = TinyGAN()
g0 = gan.gen[0].weight.detach().clone()
for _ in range(4):
    gan.discriminator_step(real)
    gan.generator_step()
assert gan.gen[0].weight.grad is None
assert torch.equal(g0, gan.gen[0].weight.detach())
print("buggy generator step: generator has no gradient, weights unchanged")


class TinyGANv2(TinyGAN):
    def generator_step(self):
        fake = self.gen(torch.randn(self.last_fake.size(0), self.z_dim))
        d_fake = self.disc(fake)
        loss = F.binary_cross_entropy_with_logits(d_fake, torch.ones_like(d_fake))
        self.g_opt.zero_grad()
        loss.backward()
        self.g_opt.step()
        return loss.item()


fixed = TinyGANv2()
f0 = fixed.gen[0].weight.detach().clone()
for _ in range(4):
    fixed.discriminator_step(real)
    fixed.generator_step()
assert fixed.gen[0].weight.grad is not None
assert not torch.equal(f0, fixed.gen[0].weight.detach())
print("ok")
