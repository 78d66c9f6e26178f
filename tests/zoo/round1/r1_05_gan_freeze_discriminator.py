"""expect: none
dynamic: dismiss
source: https://github.com/junyanz/pytorch-CycleGAN-and-pix2pix/issues/388

The usual GAN alternation: the discriminator trains on `fake.detach()`, then it is frozen with `netD.requires_grad_(False)` during the generator step (the CycleGAN code's set_requires_grad, done on the module) and unfrozen afterwards. The detach and the freeze are both intended: the generator still gets its gradient through the frozen discriminator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
netG = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
netD = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
optG = torch.optim.Adam(netG.parameters(), lr=1e-3)
optD = torch.optim.Adam(netD.parameters(), lr=1e-3)

for step in range(10):
    real = torch.randn(32, 2) * 0.5 + 2.0
    fake = netG(torch.randn(32, 4))

    netD.requires_grad_(True)
    d_real = netD(real)
    d_fake = netD(fake.detach())
    loss_d = F.binary_cross_entropy_with_logits(d_real, torch.ones_like(d_real)) + \
        F.binary_cross_entropy_with_logits(d_fake, torch.zeros_like(d_fake))
    optD.zero_grad()
    loss_d.backward()
    optD.step()

    netD.requires_grad_(False)
    d_gen = netD(fake)
    loss_g = F.binary_cross_entropy_with_logits(d_gen, torch.ones_like(d_gen))
    optG.zero_grad()
    loss_g.backward()
    optG.step()

print("G grad norm", netG[0].weight.grad.norm().item())
print("D grad from the G step:", netD[0].weight.grad.norm().item(), "(left over from the D step)")
assert netG[0].weight.grad.norm() > 0
