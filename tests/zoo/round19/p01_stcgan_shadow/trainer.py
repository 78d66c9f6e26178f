"""Stacked conditional GAN trainer: G1 detects the shadow mask, G2 removes it."""
import torch
import torch.nn as nn


def set_requires_grad(nets, flag):
    for net in nets:
        for p in net.parameters():
            p.requires_grad_(flag)


class StackedCGANTrainer:
    def __init__(self, G1, G2, D1, D2, lambda_data2=5.0, lambda_adv1=0.1, lambda_adv2=0.1, lr=2e-3):
        self.G1, self.G2, self.D1, self.D2 = G1, G2, D1, D2
        self.lam = (lambda_data2, lambda_adv1, lambda_adv2)
        self.opt_g = torch.optim.Adam(list(G1.parameters()) + list(G2.parameters()), lr=lr)
        self.opt_d = torch.optim.Adam(list(D1.parameters()) + list(D2.parameters()), lr=lr)
        self.gan_loss = nn.BCEWithLogitsLoss()
        self.l1 = nn.L1Loss()

    def _target(self, logits, real):
        return torch.full_like(logits, 1.0 if real else 0.0)

    def discriminator_step(self, image, gt_mask, gt_free):
        detected = self.G1(image)
        fake1 = torch.cat([image, detected], dim=1)
        real1 = torch.cat([image, gt_mask], dim=1)
        removed = self.G2(fake1)
        fake2 = torch.cat([fake1, removed], dim=1)
        real2 = torch.cat([real1, gt_free], dim=1)

        set_requires_grad([self.D1, self.D2], True)
        self.opt_d.zero_grad()
        d1_fake, d1_real = self.D1(fake1.detach()), self.D1(real1)
        d2_fake, d2_real = self.D2(fake2.detach()), self.D2(real2)
        loss_d = (self.gan_loss(d1_fake, self._target(d1_fake, False))
                  + self.gan_loss(d1_real, self._target(d1_real, True))
                  + self.gan_loss(d2_fake, self._target(d2_fake, False))
                  + self.gan_loss(d2_real, self._target(d2_real, True)))
        loss_d.backward()
        self.opt_d.step()
        return detected, removed

    def generator_losses(self, image, gt_mask, gt_free, detected, removed):
        set_requires_grad([self.D1, self.D2], False)
        lam_data2, lam_adv1, lam_adv2 = self.lam
        fake1 = torch.cat([image, detected], dim=1)
        d1_out = self.D1(fake1.detach())
        adv1 = self.gan_loss(d1_out, self._target(d1_out, True))
        data1 = self.l1(detected, gt_mask)
        fake2 = torch.cat([fake1, removed], dim=1)
        d2_out = self.D2(fake2.detach())
        adv2 = self.gan_loss(d2_out, self._target(d2_out, True))
        data2 = self.l1(removed, gt_free)
        total = data1 + lam_data2 * data2 + lam_adv1 * adv1 + lam_adv2 * adv2
        return total, adv1, adv2

    def generator_step(self, *batch_and_outputs):
        self.opt_g.zero_grad()
        total, adv1, adv2 = self.generator_losses(*batch_and_outputs)
        total.backward()
        self.opt_g.step()
        return total.item(), adv1, adv2
