"""
expect: GL005 50
dynamic: confirm
source: kind 6

A waveform-GAN training script picks --loss from {"hinge", "lsgan"}. Each arm
of the if/elif chain builds both losses from ONE discriminator pass on the
fake clips, made before d_opt.step(). The discriminator loss is backpropagated
(retain_graph=True), d_opt.step() rewrites the discriminator's weights in
place, and then g_loss.backward() goes back through that stale pass and
raises "modified by an inplace operation". The asserts catch it for both
choices.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def build(clip_len=64, z_dim=8):
    gen = nn.Sequential(nn.Linear(z_dim, 64), nn.ReLU(), nn.Linear(64, clip_len), nn.Tanh())
    disc = nn.Sequential(nn.Linear(clip_len, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
    return gen, disc


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--loss", choices=["hinge", "lsgan"], default="hinge")
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    gen, disc = build()
    g_opt = torch.optim.Adam(gen.parameters(), lr=2e-4)
    d_opt = torch.optim.Adam(disc.parameters(), lr=2e-4)
    t = torch.linspace(0, 1, 64)
    for _ in range(args.steps):
        real = torch.sin(2 * torch.pi * (3 + 5 * torch.rand(16, 1)) * t)
        fake = gen(torch.randn(16, 8))
        d_real, d_fake = disc(real), disc(fake)
        if args.loss == "hinge":
            d_loss = F.relu(1 - d_real).mean() + F.relu(1 + d_fake).mean()
            g_loss = -d_fake.mean()
        elif args.loss == "lsgan":
            d_loss = (d_real - 1).pow(2).mean() + d_fake.pow(2).mean()
            g_loss = (d_fake - 1).pow(2).mean()
        d_opt.zero_grad()
        d_loss.backward(retain_graph=True)
        d_opt.step()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()


if __name__ == "__main__":
    for choice in ("hinge", "lsgan"):
        try:
            main(["--loss", choice])
            raise AssertionError("expected the in-place error")
        except RuntimeError as e:
            assert "modified by an inplace operation" in str(e), e
    print("ok: generator loss from the pre-step discriminator pass raises for both losses")
