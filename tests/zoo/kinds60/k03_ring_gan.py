"""
expect: GL005 47
dynamic: confirm
source: none, invented

A small GAN fit to points on a ring. The model `RingGAN` has two members, `gen` and `disc`, and the script
builds one Adam optimizer per member (`Adam(gan.gen.parameters())`, `Adam(gan.disc.parameters())`).
`train_epoch` computes the discriminator loss and the generator loss from the same fake batch, then runs the
discriminator's backward and `opt_d.step()`, and only then `g_loss.backward()`. The generator loss flows
through the discriminator, so the discriminator step overwrites weights that the pending backward saved, and
autograd raises "modified by an inplace operation" on the first batch. The asserts catch that error and check
the generator was never updated. `train_epoch_fresh_d`, which scores the fake batch again with the updated
discriminator before the generator's backward, trains both members and pulls the samples onto the ring.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

NOISE_DIM = 8


class RingGAN(nn.Module):
    def __init__(self, noise_dim=NOISE_DIM, hidden=64):
        super().__init__()
        self.gen = nn.Sequential(nn.Linear(noise_dim, hidden), nn.LeakyReLU(0.2),
                                 nn.Linear(hidden, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 2))
        self.disc = nn.Sequential(nn.Linear(2, hidden), nn.LeakyReLU(0.2),
                                  nn.Linear(hidden, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1))


def train_epoch(gan, opt_g, opt_d, loader):
    bce = nn.BCEWithLogitsLoss()
    for real in loader:
        ones = torch.ones(real.size(0), 1)
        zeros = torch.zeros(real.size(0), 1)
        fake = gan.gen(torch.randn(real.size(0), NOISE_DIM))

        d_loss = bce(gan.disc(real), ones) + bce(gan.disc(fake.detach()), zeros)
        g_loss = bce(gan.disc(fake), ones)

        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()


def train_epoch_fresh_d(gan, opt_g, opt_d, loader):
    bce = nn.BCEWithLogitsLoss()
    for real in loader:
        ones = torch.ones(real.size(0), 1)
        zeros = torch.zeros(real.size(0), 1)
        fake = gan.gen(torch.randn(real.size(0), NOISE_DIM))

        d_loss = bce(gan.disc(real), ones) + bce(gan.disc(fake.detach()), zeros)
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        g_loss = bce(gan.disc(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()


def ring_samples(n, radius=2.0):
    angle = torch.rand(n) * 2 * math.pi
    pts = torch.stack([torch.cos(angle), torch.sin(angle)], dim=1) * radius
    return pts + 0.05 * torch.randn(n, 2)


def radius_error(gan, n=1000, radius=2.0):
    with torch.no_grad():
        pts = gan.gen(torch.randn(n, NOISE_DIM))
    return (pts.norm(dim=1) - radius).abs().mean().item()


def main():
    loader = ring_samples(2048).split(128)

    gan = RingGAN()
    opt_g = torch.optim.Adam(gan.gen.parameters(), lr=1e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(gan.disc.parameters(), lr=1e-3, betas=(0.5, 0.999))
    gen_before = [p.detach().clone() for p in gan.gen.parameters()]
    try:
        train_epoch(gan, opt_g, opt_d, loader)
        raised = None
    except RuntimeError as exc:
        raised = str(exc)
    assert raised is not None and "modified by an inplace operation" in raised
    assert all(torch.equal(a, b) for a, b in zip(gen_before, gan.gen.parameters()))

    torch.manual_seed(0)
    gan = RingGAN()
    opt_g = torch.optim.Adam(gan.gen.parameters(), lr=1e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(gan.disc.parameters(), lr=1e-3, betas=(0.5, 0.999))
    gen_before = [p.detach().clone() for p in gan.gen.parameters()]
    err_before = radius_error(gan)
    for epoch in range(40):
        train_epoch_fresh_d(gan, opt_g, opt_d, loader)
    err_after = radius_error(gan)
    assert not any(torch.equal(a, b) for a, b in zip(gen_before, gan.gen.parameters()))
    assert err_after < 0.5 * err_before, (err_before, err_after)
    print(f"distance to ring {err_before:.3f} -> {err_after:.3f}")


if __name__ == "__main__":
    main()
