import torch
import torch.nn as nn


class SynthTrainer:
    """One optimisation step of a least-squares GAN that synthesises a
    missing MR contrast from two available ones."""

    def __init__(self, generator, critic, lr=2e-4, detach_fake=False):
        self.generator = generator
        self.critic = critic
        self.detach_fake = detach_fake
        self.opt_g = torch.optim.Adam(generator.parameters(), lr=lr, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(critic.parameters(), lr=lr, betas=(0.5, 0.999))
        self.mse = nn.MSELoss()
        self.l1 = nn.L1Loss()

    def step(self, x1, x2, x3):
        x_fu = torch.cat([x1, x2], dim=1)

        # generator update
        self.opt_g.zero_grad()
        x_fake, x1_re, x2_re = self.generator(x_fu)
        pred_fake = self.critic(x_fake)
        loss_gan = self.mse(pred_fake, torch.ones_like(pred_fake))
        loss_g = loss_gan + 100 * self.l1(x_fake, x3) + 20 * self.l1(x1_re, x1) + 20 * self.l1(x2_re, x2)
        loss_g.backward(retain_graph=True)
        self.opt_g.step()

        # critic update, reusing the synthesized image from above
        self.opt_d.zero_grad()
        fake_in = x_fake.detach() if self.detach_fake else x_fake
        pred_real = self.critic(x3)
        pred_fake = self.critic(fake_in)
        loss_d = 0.5 * (self.mse(pred_real, torch.ones_like(pred_real))
                        + self.mse(pred_fake, torch.zeros_like(pred_fake)))
        loss_d.backward()
        self.opt_d.step()
        return loss_g.item(), loss_d.item()
