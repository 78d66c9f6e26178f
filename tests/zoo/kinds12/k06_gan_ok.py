"""
expect: none
dynamic: dismiss
source: kind 6

A GAN on 2-D points with a gradient penalty on generated samples. In the discriminator step
the generated batch is detached on one line and turned into a new leaf with requires_grad_()
on a later line, so the penalty can take the discriminator's gradient with respect to the
samples; the discriminator trains from it. The generator is trained in its own step from a
fresh, attached sample, so both networks' weights change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def main():
    torch.manual_seed(0)
    gen = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
    disc = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 1))
    g_opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
    d_opt = torch.optim.Adam(disc.parameters(), lr=1e-3)
    real = torch.randn(64, 2) * 0.5 + torch.tensor([2.0, -1.0])
    g_before = gen[0].weight.clone()
    d_before = disc[0].weight.clone()

    for _ in range(3):
        z = torch.randn(64, 4)
        fake = gen(z).detach()
        fake.requires_grad_()
        d_fake = disc(fake)
        (slope,) = torch.autograd.grad(d_fake.sum(), fake, create_graph=True)
        penalty = slope.pow(2).sum(1).mean()
        d_loss = F.softplus(d_fake).mean() + F.softplus(-disc(real)).mean() + 5.0 * penalty
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()

        g_loss = F.softplus(-disc(gen(torch.randn(64, 4)))).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()

    assert not torch.equal(disc[0].weight, d_before)
    assert not torch.equal(gen[0].weight, g_before)
    print("ok: discriminator and generator both trained")


if __name__ == "__main__":
    main()
