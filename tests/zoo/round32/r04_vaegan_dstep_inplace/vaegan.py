import torch
from torch import nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d=16, z=4):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


class Critic(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


class VAEGANStep:
    def __init__(self, vae, disc, fixed=False):
        self.vae, self.disc, self.fixed = vae, disc, fixed
        self.opt_vae = torch.optim.Adam(vae.parameters(), 1e-3)
        self.opt_d = torch.optim.Adam(disc.parameters(), 1e-3)

    def __call__(self, x):
        recon, mu, logvar = self.vae(x)
        ones = torch.ones(x.size(0), 1)
        zeros = torch.zeros(x.size(0), 1)

        # discriminator update
        self.opt_d.zero_grad()
        out_fake = self.disc(recon)
        err_d = F.binary_cross_entropy_with_logits(self.disc(x), ones) + \
            F.binary_cross_entropy_with_logits(out_fake, zeros)
        err_d.backward(retain_graph=True)
        self.opt_d.step()

        # VAE update, reusing the discriminator's score of the reconstruction
        self.opt_vae.zero_grad()
        if self.fixed:
            out_fake = self.disc(recon)
        kld = -0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(-1).mean()
        err_vae = F.mse_loss(recon, x) + kld + F.binary_cross_entropy_with_logits(out_fake, ones)
        err_vae.backward()
        self.opt_vae.step()
        return err_vae.item()
