"""
expect: GL003 41
dynamic: confirm
source: kind 10

A sprite GAN's generator step samples fakes under torch.no_grad() (copied
from the discriminator step), hits "element 0 of tensors does not require
grad" and "fixes" it with fake.requires_grad_(). The generator loss now
backpropagates into the detached fakes and the discriminator only, so the
generator never trains. The asserts show G's grads are None and its weights
unchanged, while the variant that generates with grad trains G.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpriteGAN:
    def __init__(self, z_dim=16, side=8, fixed=False):
        self.z_dim, self.fixed = z_dim, fixed
        self.G = nn.Sequential(nn.Linear(z_dim, 64), nn.ReLU(), nn.Linear(64, side * side), nn.Tanh())
        self.D = nn.Sequential(nn.Linear(side * side, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.5, 0.99))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3, betas=(0.5, 0.99))

    def d_step(self, real):
        with torch.no_grad():
            fake = self.G(torch.randn(len(real), self.z_dim))
        loss = F.softplus(-self.D(real)).mean() + F.softplus(self.D(fake)).mean()
        self.opt_d.zero_grad()
        loss.backward()
        self.opt_d.step()

    def g_step(self, batch):
        z = torch.randn(batch, self.z_dim)
        if self.fixed:
            fake = self.G(z)
        else:
            with torch.no_grad():
                fake = self.G(z)
            fake.requires_grad_()
        loss = F.softplus(-self.D(fake)).mean()
        self.opt_g.zero_grad()
        loss.backward()
        grad = self.G[0].weight.grad
        self.opt_g.step()
        return grad


def run(fixed):
    torch.manual_seed(17)
    gan = SpriteGAN(fixed=fixed)
    real = (torch.rand(64, 64) > 0.5).float() * 2 - 1
    before = gan.G[0].weight.detach().clone()
    for _ in range(20):
        gan.d_step(real)
        grad = gan.g_step(64)
    return gan, before, grad


if __name__ == "__main__":
    gan, before, grad = run(fixed=False)
    assert grad is None
    assert torch.equal(gan.G[0].weight, before)

    gan, before, grad = run(fixed=True)
    assert grad is not None and grad.abs().sum() > 0
    assert not torch.equal(gan.G[0].weight, before)
    print("ok: requires_grad_() on no_grad fakes leaves the generator untrained")
