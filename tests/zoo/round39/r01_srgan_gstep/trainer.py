import torch
import torch.nn as nn
import torch.nn.functional as F


class SRTrainer:
    """Alternating D/G steps for a tiny SRGAN-style model."""

    def __init__(self, gen, disc, lr=1e-2):
        self.gen = gen
        self.disc = disc
        self.opt_g = torch.optim.SGD(gen.parameters(), lr=lr)
        self.opt_d = torch.optim.SGD(disc.parameters(), lr=lr)

    def make_sr(self, lr_img):
        # shared by both steps; wrapped in no_grad "to save memory"
        with torch.no_grad():
            sr = self.gen(lr_img)
        return sr

    def d_step(self, sr, hr):
        self.opt_d.zero_grad()
        real = self.disc(hr)
        fake = self.disc(sr)
        loss = F.softplus(-real).mean() + F.softplus(fake).mean()
        loss.backward()
        self.opt_d.step()
        return loss

    def g_step(self, sr, hr):
        self.opt_g.zero_grad()
        # "element 0 of tensors does not require grad" went away after this
        sr.requires_grad_(True)
        pix = F.l1_loss(sr, hr)
        adv = F.softplus(-self.disc(sr)).mean()
        loss = pix + 1e-3 * adv
        loss.backward()
        self.opt_g.step()
        return loss

    def step(self, lr_img, hr):
        sr = self.make_sr(lr_img)
        self.d_step(sr, hr)
        return self.g_step(sr, hr)
