"""
expect: none
dynamic: dismiss
source: https://github.com/Stability-AI/stable-audio-tools/issues/55

A reader of stable-audio-tools' EnCodec-style discriminator asked whether the
generator output should be detached when computing the discriminator loss.
This audio-autoencoder GAN step does detach it for the discriminator update
and does not detach it for the generator's adversarial + reconstruction
loss, which is the correct split. Asserts: the D step leaves generator grads
empty, and the G step moves the generator.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

gen = nn.Sequential(nn.Conv1d(1, 8, 5, padding=2), nn.Tanh(), nn.Conv1d(8, 1, 5, padding=2))
disc = nn.Sequential(nn.Conv1d(1, 8, 9, stride=4), nn.LeakyReLU(0.2), nn.Conv1d(8, 1, 3))
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3)
opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3)


def d_step(real, fake):
    opt_d.zero_grad()
    loss = F.relu(1 - disc(real)).mean() + F.relu(1 + disc(fake.detach())).mean()
    loss.backward()
    opt_d.step()


def g_step(real, fake):
    opt_g.zero_grad()
    loss = -disc(fake).mean() + 10 * F.l1_loss(fake, real)
    loss.backward()
    opt_g.step()


wave = torch.randn(4, 1, 256)
g0 = gen[0].weight.detach().clone()
fake = gen(wave)
d_step(wave, fake)
assert all(p.grad is None for p in gen.parameters())
assert disc[0].weight.grad.abs().sum() > 0
g_step(wave, fake)
assert gen[0].weight.grad.abs().sum() > 0
assert not torch.equal(gen[0].weight, g0)
print("ok: D step detached on purpose, G step trains the generator")
