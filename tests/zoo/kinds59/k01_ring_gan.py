"""
expect: GL005 65
dynamic: confirm
source: none, invented

A small GAN learns an 8-mode ring of 2-D Gaussians. A helper `take_step` zeroes the gradients,
backpropagates the loss it is given and steps the optimizer. Inside the loop the generator loss is
scored by the discriminator (`disc(fake)`) and only afterwards the discriminator's helper call runs;
that call's `d_opt.step()` rewrites the discriminator weights in place while the generator loss's
graph still holds them for its backward. When the generator helper then calls `backward()` autograd
raises "modified by an inplace operation". The asserts catch that error; the fixed ordering (score
the fake batch after the discriminator step) trains both networks and changes the generator weights.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


def ring_batch(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,))
    ang = k.float() * (2 * math.pi / modes)
    centers = torch.stack([radius * torch.cos(ang), radius * torch.sin(ang)], dim=1)
    return centers + std * torch.randn(n, 2)


def make_gen(zdim=4):
    return nn.Sequential(nn.Linear(zdim, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))


def make_disc():
    return nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))


def take_step(optimizer, loss):
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train(iters, reorder=False, zdim=4, bs=128):
    gen, disc = make_gen(zdim), make_disc()
    g_opt = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.5, 0.999))
    d_opt = torch.optim.Adam(disc.parameters(), lr=1e-3, betas=(0.5, 0.999))
    g_start = [p.detach().clone() for p in gen.parameters()]
    for it in range(iters):
        real = ring_batch(bs)
        fake = gen(torch.randn(bs, zdim))
        real_logits = disc(real)
        fake_logits = disc(fake.detach())
        d_loss = F.binary_cross_entropy_with_logits(real_logits, torch.ones_like(real_logits)) + \
            F.binary_cross_entropy_with_logits(fake_logits, torch.zeros_like(fake_logits))
        if reorder:
            take_step(d_opt, d_loss)
            g_logits = disc(fake)
            g_loss = F.binary_cross_entropy_with_logits(g_logits, torch.ones_like(g_logits))
            take_step(g_opt, g_loss)
            continue
        g_logits = disc(fake)
        g_loss = F.binary_cross_entropy_with_logits(g_logits, torch.ones_like(g_logits))
        take_step(d_opt, d_loss)
        take_step(g_opt, g_loss)
    moved = max((p - q).abs().max().item() for p, q in zip(gen.parameters(), g_start))
    return moved


if __name__ == "__main__":
    try:
        train(3)
        raised = None
    except RuntimeError as e:
        raised = str(e)
    assert raised is not None and "modified by an inplace operation" in raised, raised

    moved = train(50, reorder=True)
    assert moved > 1e-3, moved
    print("k01_ring_gan: all checks passed")
