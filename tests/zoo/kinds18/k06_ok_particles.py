"""
expect: none
dynamic: dismiss
source: kind 6

A GAN that learns to sample 2-D particle velocities (an anisotropic Gaussian)
picks --loss from {"hinge", "nonsat"}. The discriminator loss is built from
D(fake.detach()) and stepped first; then each arm of an if/elif chain (no
else) builds the generator loss from a FRESH discriminator pass made after
d_opt.step() and backpropagates it. Nothing saved for that backward was
modified, so it runs; the asserts show no error for both choices and that the
generated spread moves toward the data.
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--loss", choices=["hinge", "nonsat"], default="hinge")
    parser.add_argument("--steps", type=int, default=600)
    args = parser.parse_args(argv)

    torch.manual_seed(0)
    gen = nn.Sequential(nn.Linear(2, 32), nn.ReLU(), nn.Linear(32, 2))
    disc = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    g_opt = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.5, 0.9))
    d_opt = torch.optim.Adam(disc.parameters(), lr=1e-3, betas=(0.5, 0.9))
    sigma = torch.tensor([3.0, 0.5])
    with torch.no_grad():
        start_std = gen(torch.randn(2048, 2)).std(0)
    for _ in range(args.steps):
        real = torch.randn(128, 2) * sigma
        fake = gen(torch.randn(128, 2))
        d_real, d_fake = disc(real), disc(fake.detach())
        d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
        d_opt.zero_grad()
        d_loss.backward()
        d_opt.step()
        if args.loss == "hinge":
            g_loss = -disc(fake).mean()
        elif args.loss == "nonsat":
            g_loss = F.softplus(-disc(fake)).mean()
        g_opt.zero_grad()
        g_loss.backward()
        g_opt.step()
    with torch.no_grad():
        end_std = gen(torch.randn(2048, 2)).std(0)
    return start_std, end_std


if __name__ == "__main__":
    sigma = torch.tensor([3.0, 0.5])
    for choice in ("hinge", "nonsat"):
        start_std, end_std = main(["--loss", choice])
        assert (end_std - sigma).abs().sum() < (start_std - sigma).abs().sum(), (choice, start_std, end_std)
        print("ok:", choice, "std", start_std.tolist(), "->", end_std.tolist())
