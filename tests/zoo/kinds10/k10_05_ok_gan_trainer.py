"""
expect: none
dynamic: dismiss
source: kinds check 10, kind 5

Same GAN trainer with separate update_discriminator / update_generator
methods. The discriminator loss sees a detached fake batch, and the generator
loss is recomputed after the discriminator's optimizer step, so each backward
runs through a fresh graph built with the current weights and both nets train.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)

LATENT = 4


def sample_ring(n, modes=8, radius=2.0, std=0.05):
    k = torch.randint(0, modes, (n,)).float()
    angle = 2 * math.pi * k / modes
    centres = torch.stack([radius * torch.cos(angle), radius * torch.sin(angle)], dim=1)
    return centres + std * torch.randn(n, 2)


def mlp(n_in, n_out, hidden=32):
    return nn.Sequential(nn.Linear(n_in, hidden), nn.LeakyReLU(0.2),
                         nn.Linear(hidden, hidden), nn.LeakyReLU(0.2),
                         nn.Linear(hidden, n_out))


class GANTrainer:
    def __init__(self, generator, discriminator, lr=2e-4):
        self.generator = generator
        self.discriminator = discriminator
        self.opt_g = torch.optim.Adam(generator.parameters(), lr=lr, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(discriminator.parameters(), lr=lr, betas=(0.5, 0.999))

    def update_discriminator(self, d_loss):
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()

    def update_generator(self, g_loss):
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()


def discriminator_loss(generator, discriminator, real, z):
    fake = generator(z).detach()
    logits_real = discriminator(real)
    logits_fake = discriminator(fake)
    return (F.binary_cross_entropy_with_logits(logits_real, torch.ones_like(logits_real))
            + F.binary_cross_entropy_with_logits(logits_fake, torch.zeros_like(logits_fake)))


def generator_loss(generator, discriminator, z):
    logits_fake = discriminator(generator(z))
    return F.binary_cross_entropy_with_logits(logits_fake, torch.ones_like(logits_fake))


def main():
    G, D = mlp(LATENT, 2), mlp(2, 1)
    trainer = GANTrainer(G, D)
    g_before = [p.detach().clone() for p in G.parameters()]
    d_before = [p.detach().clone() for p in D.parameters()]

    for _ in range(3):
        real = sample_ring(32)
        z = torch.randn(32, LATENT)
        trainer.update_discriminator(discriminator_loss(G, D, real, z))
        trainer.update_generator(generator_loss(G, D, z))

    assert all(not torch.equal(p, old) for p, old in zip(G.parameters(), g_before))
    assert all(not torch.equal(p, old) for p, old in zip(D.parameters(), d_before))
    print("OK")


if __name__ == "__main__":
    main()
