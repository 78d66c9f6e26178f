"""
expect: none
dynamic: dismiss
source: https://github.com/open-mmlab/mmagic/issues/53

In the SRGAN model's generator step, the relativistic GAN loss uses pred_d_real =
netD(real).detach(); a user asked whether that detach stops gradients it should not. The
maintainer explained the real branch is only a reference value in the generator update (the
original RelativisticGAN code leaves it attached, with no effect on G). This program rebuilds the
generator step with the detached real prediction. The asserts show the generator gets a nonzero
gradient from both relativistic terms, its weights move, and the generator gradient is identical
to the version without the detach; the discriminator is untouched by this step.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def build():
    torch.manual_seed(0)
    netG = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 6))
    netD = nn.Sequential(nn.Linear(6, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
    return netG, netD


def g_step(netG, netD, lq, gt, ra_variant):
    fake_H = netG(lq)
    pred_g_fake = netD(fake_H)
    pred_d_real = netD(gt).detach() if ra_variant else netD(gt)
    ones, zeros = torch.ones_like(pred_g_fake), torch.zeros_like(pred_g_fake)
    l_g_gan = (F.binary_cross_entropy_with_logits(pred_d_real - pred_g_fake.mean(), zeros)
               + F.binary_cross_entropy_with_logits(pred_g_fake - pred_d_real.mean(), ones)) / 2
    l_g_total = l_g_gan + F.l1_loss(fake_H, gt)
    l_g_total.backward()


lq, gt = torch.randn(16, 6), torch.randn(16, 6)

netG, netD = build()
optG = torch.optim.Adam(netG.parameters(), lr=1e-3)
d0 = [p.detach().clone() for p in netD.parameters()]
g0 = netG[0].weight.detach().clone()
optG.zero_grad()
g_step(netG, netD, lq, gt, ra_variant=True)
grad_detached = netG[0].weight.grad.clone()
assert grad_detached.abs().sum() > 0
optG.step()
assert not torch.equal(g0, netG[0].weight)
assert all(torch.equal(a, b) for a, b in zip(d0, netD.parameters()))

netG2, netD2 = build()
g_step(netG2, netD2, lq, gt, ra_variant=False)
assert torch.allclose(grad_detached, netG2[0].weight.grad)
print("ok: detached real prediction is a constant reference; G trains the same")
