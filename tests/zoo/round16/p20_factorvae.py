"""
expect: GL005 61
dynamic: confirm
source: https://github.com/YannDubs/disentangling-vae/issues/77

The FactorVAE loss in disentangling-vae first backpropagates the VAE loss with
retain_graph=True, then trains the total-correlation discriminator on d_z computed from the same
latent samples; the issue recalls that the VAE optimizer.step() had to be moved to the end because
of an in-place modification error. This program rebuilds the earlier order: the VAE step runs
between vae_loss.backward(retain_graph=True) and d_tc_loss.backward(). Adam rewrites the encoder
weights in place while the discriminator loss still needs them through latent_sample1, so the
second backward raises "modified by an inplace operation"; with the step moved to the end the
update runs and both networks change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Encoder(nn.Module):
    def __init__(self, d=12, z=3):
        super().__init__()
        self.hid = nn.Sequential(nn.Linear(d, 24), nn.ReLU())
        self.mu = nn.Linear(24, z)

    def forward(self, x):
        return self.mu(self.hid(x))


class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = nn.Sequential(nn.Linear(3, 24), nn.ReLU(), nn.Linear(24, 12))

    def forward(self, x):
        z = self.encoder(x) + 0.1 * torch.randn(x.size(0), 3)
        return self.decoder(z), z


def permute_dims(z):
    return torch.stack([col[torch.randperm(z.size(0))] for col in z.t()], dim=1)


class FactorKLoss:
    def __init__(self, vae, gamma=6.0):
        self.discriminator = nn.Sequential(nn.Linear(3, 32), nn.LeakyReLU(0.2), nn.Linear(32, 2))
        self.optim_d = torch.optim.Adam(self.discriminator.parameters(), lr=5e-4)
        self.gamma = gamma

    def __call__(self, vae, optimizer, x1, x2, late_step):
        recon, latent_sample1 = vae(x1)
        d_z = self.discriminator(latent_sample1)
        tc_loss = (d_z[:, 0] - d_z[:, 1]).mean()
        vae_loss = F.mse_loss(recon, x1) + self.gamma * tc_loss
        optimizer.zero_grad()
        vae_loss.backward(retain_graph=True)
        if not late_step:
            optimizer.step()

        _, latent_sample2 = vae(x2)
        z_perm = permute_dims(latent_sample2).detach()
        d_z_perm = self.discriminator(z_perm)
        ones = torch.ones(x1.size(0), dtype=torch.long)
        zeros = torch.zeros_like(ones)
        d_tc_loss = 0.5 * (F.cross_entropy(d_z, zeros) + F.cross_entropy(d_z_perm, ones))
        self.optim_d.zero_grad()
        d_tc_loss.backward()
        if late_step:
            optimizer.step()
        self.optim_d.step()


x1, x2 = torch.randn(16, 12), torch.randn(16, 12)
vae = VAE()
loss_f = FactorKLoss(vae)
opt = torch.optim.Adam(vae.parameters(), lr=1e-3)
try:
    loss_f(vae, opt, x1, x2, late_step=False)
    msg = ""
except RuntimeError as e:
    msg = str(e)
assert "inplace" in msg, msg

vae2 = VAE()
loss_f2 = FactorKLoss(vae2)
opt2 = torch.optim.Adam(vae2.parameters(), lr=1e-3)
e0 = vae2.encoder.mu.weight.detach().clone()
d0 = loss_f2.discriminator[2].weight.detach().clone()
loss_f2(vae2, opt2, x1, x2, late_step=True)
assert not torch.equal(e0, vae2.encoder.mu.weight)
assert not torch.equal(d0, loss_f2.discriminator[2].weight)
print("ok: VAE step before the discriminator backward breaks the shared latent graph")
