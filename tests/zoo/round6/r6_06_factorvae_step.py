"""expect: GL005 69
dynamic: confirm
source: https://github.com/1Konny/FactorVAE/issues/15

FactorVAE solver: the VAE loss includes a total-correlation term D(z), is
backpropagated with retain_graph=True, and the VAE optimizer steps. The
discriminator loss is then built from the same D_z tensor, whose graph runs
back through z into the encoder. optim_VAE.step() has already updated the
encoder weights in place, and those weights were saved by the encoder's
matmul for backward, so D_tc_loss.backward() fails with "modified by an
inplace operation". (retain_graph itself is needed here: the second backward
really goes through the first graph.)
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FactorVAE(nn.Module):
    def __init__(self, x_dim=16, z_dim=4):
        super().__init__()
        self.z_dim = z_dim
        self.encode = nn.Sequential(nn.Linear(x_dim, 32), nn.ReLU(), nn.Linear(32, 2 * z_dim))
        self.decode = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, x_dim))

    def forward(self, x, no_dec=False):
        stats = self.encode(x)
        mu, logvar = stats[:, :self.z_dim], stats[:, self.z_dim:]
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        if no_dec:
            return z
        return self.decode(z), mu, logvar, z


class Discriminator(nn.Module):
    def __init__(self, z_dim=4):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 2))

    def forward(self, z):
        return self.net(z)


def permute_dims(z):
    return torch.stack([col[torch.randperm(z.size(0))] for col in z.t()], dim=1)


class Solver:
    def __init__(self, gamma=6.4):
        self.gamma = gamma
        self.VAE = FactorVAE()
        self.D = Discriminator()
        self.optim_VAE = torch.optim.Adam(self.VAE.parameters(), lr=1e-3)
        self.optim_D = torch.optim.Adam(self.D.parameters(), lr=1e-3)

    def train_step(self, x_true1, x_true2):
        ones = torch.ones(x_true1.size(0), dtype=torch.long)
        zeros = torch.zeros(x_true1.size(0), dtype=torch.long)

        x_recon, mu, logvar, z = self.VAE(x_true1)
        vae_recon_loss = F.mse_loss(x_recon, x_true1, reduction="sum") / x_true1.size(0)
        vae_kld = (-0.5 * (1 + logvar - mu ** 2 - logvar.exp())).sum(1).mean()
        D_z = self.D(z)
        vae_tc_loss = (D_z[:, :1] - D_z[:, 1:]).mean()
        vae_loss = vae_recon_loss + vae_kld + self.gamma * vae_tc_loss

        self.optim_VAE.zero_grad()
        vae_loss.backward(retain_graph=True)
        self.optim_VAE.step()

        z_prime = self.VAE(x_true2, no_dec=True)
        z_pperm = permute_dims(z_prime).detach()
        D_z_pperm = self.D(z_pperm)
        D_tc_loss = 0.5 * (F.cross_entropy(D_z, zeros) + F.cross_entropy(D_z_pperm, ones))

        self.optim_D.zero_grad()
        D_tc_loss.backward()
        self.optim_D.step()
        return vae_loss.item(), D_tc_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    solver = Solver()
    batches = [(torch.randn(8, 16), torch.randn(8, 16)) for _ in range(3)]
    try:
        for x1, x2 in batches:
            solver.train_step(x1, x2)
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err), err
        print("OK: D_tc_loss.backward() hit encoder weights already updated by optim_VAE.step()")
    else:
        raise AssertionError("expected the in-place parameter update to break the second backward")
