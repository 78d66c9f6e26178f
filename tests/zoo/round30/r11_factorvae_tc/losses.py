import torch
import torch.nn.functional as F


def permute_dims(z):
    # shuffle every latent dimension independently across the batch
    cols = [z[torch.randperm(z.size(0)), j] for j in range(z.size(1))]
    return torch.stack(cols, dim=1)


class FactorLoss:
    """VAE loss with a total-correlation term estimated by a discriminator."""

    def __init__(self, discriminator, optim_disc, gamma=6.0):
        self.disc = discriminator
        self.optim_disc = optim_disc
        self.gamma = gamma

    def __call__(self, recon, x, mu, logvar, z, z2, optimizer_vae):
        rec = F.mse_loss(recon, x)
        kl = -0.5 * torch.mean(1 + logvar - mu.pow(2) - logvar.exp())
        d_z = self.disc(z)
        tc = (d_z[:, 0] - d_z[:, 1]).mean()
        vae_loss = rec + kl + self.gamma * tc

        optimizer_vae.zero_grad()
        vae_loss.backward(retain_graph=True)
        optimizer_vae.step()

        # discriminator update reuses d_z from the graph above
        z_perm = permute_dims(z2).detach()
        d_z_perm = self.disc(z_perm)
        ones = torch.ones(d_z.size(0), dtype=torch.long)
        zeros = torch.zeros(d_z.size(0), dtype=torch.long)
        d_tc_loss = 0.5 * (F.cross_entropy(d_z, zeros) + F.cross_entropy(d_z_perm, ones))
        self.optim_disc.zero_grad()
        d_tc_loss.backward()
        self.optim_disc.step()
        return vae_loss.item(), d_tc_loss.item()
