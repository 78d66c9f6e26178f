"""
expect: GL005 57
dynamic: confirm
source: https://github.com/psh01087/Vid-ODE/issues/6

The report: training Vid-ODE fails with the in-place operation error in the adversarial loss on
newer PyTorch; the fix that worked for other users was to swap the order so the generator is
updated before the discriminator. This program rebuilds the train() step: both losses are built
first (the generator loss runs through the discriminator), then the discriminator is updated,
then the generator loss is backpropagated. optimizer_netD.step() changes the discriminator
weights that the generator loss's graph saved, and the asserts catch the "modified by an inplace
operation" RuntimeError; the swapped order trains both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.ode_func = nn.Sequential(nn.Linear(16, 32), nn.Tanh(), nn.Linear(32, 16))
        self.decoder = nn.Linear(16, 48)

    def forward(self, z0, n_steps=4, dt=0.25):
        z, frames = z0, []
        for _ in range(n_steps):
            z = z + dt * self.ode_func(z)  # explicit Euler ODE solve
            frames.append(self.decoder(z))
        return torch.stack(frames, 1)


class SeqDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(48, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, seq):
        return self.net(seq).mean(1)


def train(netG, netD, optimizer_netG, optimizer_netD, z0, real, g_first):
    fake = netG(z0)
    loss_netD = F.softplus(-netD(real)).mean() + F.softplus(netD(fake.detach())).mean()
    loss_netG = F.softplus(-netD(fake)).mean() + F.l1_loss(fake, real)
    if g_first:
        optimizer_netG.zero_grad()
        loss_netG.backward()
        optimizer_netG.step()
        optimizer_netD.zero_grad()
        loss_netD.backward()
        optimizer_netD.step()
        return
    # Train D
    optimizer_netD.zero_grad()
    loss_netD.backward()
    optimizer_netD.step()
    # Train G
    optimizer_netG.zero_grad()
    loss_netG.backward()
    optimizer_netG.step()


def setup():
    torch.manual_seed(0)
    netG, netD = FrameGenerator(), SeqDiscriminator()
    return (netG, netD, torch.optim.Adam(netG.parameters(), lr=1e-3),
            torch.optim.Adam(netD.parameters(), lr=1e-3), torch.randn(4, 16), torch.randn(4, 4, 48))


netG, netD, optG, optD, z0, real = setup()
g_before = netG.decoder.weight.detach().clone()
try:
    train(netG, netD, optG, optD, z0, real, g_first=False)
    raise AssertionError("expected the in-place error")
except RuntimeError as err:
    assert "inplace" in str(err), err
assert torch.equal(g_before, netG.decoder.weight), "generator never got its step"

netG, netD, optG, optD, z0, real = setup()
g_before, d_before = netG.decoder.weight.detach().clone(), netD.net[0].weight.detach().clone()
for _ in range(3):
    train(netG, netD, optG, optD, z0, real, g_first=True)
assert not torch.equal(g_before, netG.decoder.weight) and not torch.equal(d_before, netD.net[0].weight)
print("ok: D's optimizer step before G's backward through D raises the inplace error")
