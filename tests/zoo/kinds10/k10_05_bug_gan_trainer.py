"""
expect: GL005 46
dynamic: error
source: kinds check 10, kind 5

A GAN on a 2-D ring of Gaussians. gan_losses builds the discriminator and
generator losses from one forward pass through D(fake); the trainer's
update_discriminator backprops with retain_graph and then steps Adam, which
updates D's weights in place. update_generator then backprops g_loss through
the same D nodes, whose saved weights changed, so backward raises.
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
        d_loss.backward(retain_graph=True)
        self.opt_d.step()
        return d_loss.item()

    def update_generator(self, g_loss):
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()


def gan_losses(generator, discriminator, real, z):
    fake = generator(z)
    logits_real = discriminator(real)
    logits_fake = discriminator(fake)
    d_loss = (F.binary_cross_entropy_with_logits(logits_real, torch.ones_like(logits_real))
              + F.binary_cross_entropy_with_logits(logits_fake, torch.zeros_like(logits_fake)))
    g_loss = F.binary_cross_entropy_with_logits(logits_fake, torch.ones_like(logits_fake))
    return d_loss, g_loss


def main():
    G, D = mlp(LATENT, 2), mlp(2, 1)
    trainer = GANTrainer(G, D)
    real = sample_ring(32)
    z = torch.randn(32, LATENT)

    g_before = [p.detach().clone() for p in G.parameters()]
    d_loss, g_loss = gan_losses(G, D, real, z)
    trainer.update_discriminator(d_loss)
    raised = False
    try:
        trainer.update_generator(g_loss)
    except RuntimeError as err:
        raised = "modified by an inplace operation" in str(err)
    assert raised, "D was stepped between the two backward passes; expected an error"
    assert all(torch.equal(p, old) for p, old in zip(G.parameters(), g_before))
    print("OK")


if __name__ == "__main__":
    main()
