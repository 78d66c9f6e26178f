"""
expect: GL001 35
dynamic: confirm
source: https://github.com/tamarott/SinGAN/pull/117

SinGAN-style alternating GAN training. The PR's "fix for PyTorch 1.6" makes
the generator step score a detached fake: `output = netD(fake.detach())`.
The discriminator step detaches the fake on purpose (correct), but in the
generator step the detach cuts the only path from netG's parameters (held by
optimizerG) to errG, so optimizerG.step() never changes the generator, as the
reviewers on the PR point out. Asserted: after the generator step every netG
parameter has .grad None and is unchanged, while netD did train.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
netG = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 8))
netD = nn.Sequential(nn.Linear(8, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
optimizerD = torch.optim.Adam(netD.parameters(), lr=1e-3)
optimizerG = torch.optim.Adam(netG.parameters(), lr=1e-3)
real = torch.randn(6, 8)
noise = torch.randn(6, 4)


def discriminator_step(fake):
    netD.zero_grad()
    errD = -netD(real).mean() + netD(fake.detach()).mean()
    errD.backward()
    optimizerD.step()


def generator_step(fake):
    netG.zero_grad()
    output = netD(fake.detach())
    errG = -output.mean()
    errG.backward()
    optimizerG.step()
    return errG


g_before = [p.detach().clone() for p in netG.parameters()]
d_before = [p.detach().clone() for p in netD.parameters()]
for _ in range(3):
    fake = netG(noise)
    discriminator_step(fake)
    generator_step(fake)

assert all(p.grad is None for p in netG.parameters()), "netG got a gradient"
assert all(torch.equal(a, b) for a, b in zip(g_before, netG.parameters())), "netG moved"
assert not all(torch.equal(a, b) for a, b in zip(d_before, netD.parameters()))
print("OK: generator step with fake.detach() never updates netG")
