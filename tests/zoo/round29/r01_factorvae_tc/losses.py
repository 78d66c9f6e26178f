import torch
import torch.nn.functional as F


def permute_dims(z):
    out = torch.empty_like(z)
    for j in range(z.size(1)):
        out[:, j] = z[torch.randperm(z.size(0)), j]
    return out


class FactorVAELoss:
    """VAE step first, then the TC discriminator reuses the logits D(z) from the VAE step."""

    def __init__(self, vae, disc, opt_vae, opt_d, gamma=6.0):
        self.vae, self.disc = vae, disc
        self.opt_vae, self.opt_d = opt_vae, opt_d
        self.gamma = gamma

    def step(self, x1, x2):
        recon, mu, logvar, z = self.vae(x1)
        rec = F.mse_loss(recon, x1, reduction="sum") / x1.size(0)
        kl = -0.5 * torch.mean(torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), 1))
        d_z = self.disc(z)
        tc = (d_z[:, 0] - d_z[:, 1]).mean()
        vae_loss = rec + kl + self.gamma * tc

        self.opt_vae.zero_grad()
        vae_loss.backward(retain_graph=True)
        self.opt_vae.step()

        _, _, _, z2 = self.vae(x2)
        d_perm = self.disc(permute_dims(z2).detach())
        zeros = torch.zeros(x1.size(0), dtype=torch.long)
        ones = torch.ones(x1.size(0), dtype=torch.long)
        d_tc = 0.5 * (F.cross_entropy(d_z, zeros) + F.cross_entropy(d_perm, ones))
        self.opt_d.zero_grad()
        d_tc.backward()
        self.opt_d.step()
        return vae_loss.item(), d_tc.item()
