"""
expect: GL005 41
expect: GL005 46
dynamic: confirm
source: kind D

A GAN with a global discriminator and a patch discriminator records the generator's adversarial
loss through both discriminators, then updates each discriminator with its own loss, backward and
optimizer step, and only then backpropagates the recorded generator loss. Both discriminator steps
change weights the generator loss's graph saved, so the asserts catch a RuntimeError mentioning
"inplace"; a fixed step that recomputes the generator loss after both updates trains the generator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(10)

generator = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 64), nn.Unflatten(1, (1, 8, 8)))
global_disc = nn.Sequential(nn.Flatten(), nn.Linear(64, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
patch_disc = nn.Sequential(nn.Conv2d(1, 4, 3, stride=2), nn.LeakyReLU(0.2), nn.Conv2d(4, 1, 3))
g_opt = torch.optim.Adam(generator.parameters(), lr=2e-4)
global_opt = torch.optim.Adam(global_disc.parameters(), lr=2e-4)
patch_opt = torch.optim.Adam(patch_disc.parameters(), lr=2e-4)

real = torch.randn(6, 1, 8, 8)


def adv(logits, is_real):
    target = torch.ones_like(logits) if is_real else torch.zeros_like(logits)
    return F.binary_cross_entropy_with_logits(logits, target)


def gan_step():
    fake = generator(torch.randn(6, 8))
    g_loss = adv(global_disc(fake), True) + adv(patch_disc(fake), True)

    d_global = adv(global_disc(real), True) + adv(global_disc(fake.detach()), False)
    global_opt.zero_grad()
    d_global.backward()
    global_opt.step()

    d_patch = adv(patch_disc(real), True) + adv(patch_disc(fake.detach()), False)
    patch_opt.zero_grad()
    d_patch.backward()
    patch_opt.step()

    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()


try:
    gan_step()
    raise AssertionError("expected an in-place modification error")
except RuntimeError as err:
    assert "inplace" in str(err), err
    print("caught:", str(err).splitlines()[0][:90])


def gan_step_v2():
    fake = generator(torch.randn(6, 8))
    d_global = adv(global_disc(real), True) + adv(global_disc(fake.detach()), False)
    global_opt.zero_grad()
    d_global.backward()
    global_opt.step()
    d_patch = adv(patch_disc(real), True) + adv(patch_disc(fake.detach()), False)
    patch_opt.zero_grad()
    d_patch.backward()
    patch_opt.step()
    g_loss = adv(global_disc(fake), True) + adv(patch_disc(fake), True)
    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()


w0 = generator[0].weight.detach().clone()
gan_step_v2()
assert not torch.equal(w0, generator[0].weight.detach())
print("ok")
