"""
expect: none
dynamic: dismiss
source: https://github.com/NVlabs/stylegan2-ada-pytorch/pull/185

GAN training loop whose discriminator phase generates its fake images inside
`torch.no_grad()` (the PR's speed-up). This is a correct no_grad region: the D
loss is meant to train only D, and the generator phase regenerates fakes with
grad enabled. The asserts show the D step leaves G without gradient while D gets
one, the G step gives G gradient, and both losses move the way they should.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Phases:
    def __init__(self, G, D):
        self.G, self.D = G, D
        self.opt_g = torch.optim.Adam(G.parameters(), 2e-3, betas=(0.0, 0.99))
        self.opt_d = torch.optim.Adam(D.parameters(), 2e-3, betas=(0.0, 0.99))

    def d_loss(self, real, z):
        with torch.no_grad():
            fake = self.G(z)
        return F.softplus(self.D(fake)).mean() + F.softplus(-self.D(real)).mean()

    def g_loss(self, z):
        return F.softplus(-self.D(self.G(z))).mean()


G = nn.Sequential(nn.Linear(8, 32), nn.LeakyReLU(0.2), nn.Linear(32, 4))
D = nn.Sequential(nn.Linear(4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
ph = Phases(G, D)
real = torch.randn(64, 4) + 1.5
z = torch.randn(64, 8)

loss = ph.d_loss(real, z)
loss.backward()
assert all(p.grad is None for p in G.parameters())
assert all(p.grad is not None for p in D.parameters())

d0 = ph.d_loss(real, z).item()
for _ in range(15):
    ph.opt_d.zero_grad(); ph.d_loss(real, z).backward(); ph.opt_d.step()
assert ph.d_loss(real, z).item() < d0

g0 = ph.g_loss(z).item()
for _ in range(15):
    ph.opt_g.zero_grad(); ph.g_loss(z).backward()
    assert all(p.grad.abs().sum() > 0 for p in G.parameters())
    ph.opt_g.step()
assert ph.g_loss(z).item() < g0
print("ok")
