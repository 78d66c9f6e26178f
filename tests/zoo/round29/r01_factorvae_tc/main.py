"""
expect: GL005 losses.py:30
dynamic: confirm
source: https://github.com/AntixK/PyTorch-VAE/issues/14

FactorVAE trainer (VAE + total-correlation discriminator). The loss object runs
vae_loss.backward(retain_graph=True), then opt_vae.step(), and only afterwards
backpropagates the discriminator loss built from the *same* logits D(z). Those
logits reach back into the encoder, whose weights the optimizer step just edited
in place, so the second backward hits a version-counter error. The asserts show
the error, and that detaching z for the discriminator term (the fix) runs.
"""
import torch
import torch.nn as nn
from losses import FactorVAELoss

torch.manual_seed(0)
torch.set_num_threads(1)


class VAE(nn.Module):
    def __init__(self, d=12, k=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 2 * k))
        self.dec = nn.Sequential(nn.Linear(k, 32), nn.ReLU(), nn.Linear(32, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar, z


def make():
    vae = VAE()
    disc = nn.Sequential(nn.Linear(4, 32), nn.LeakyReLU(0.2), nn.Linear(32, 2))
    return FactorVAELoss(vae, disc, torch.optim.Adam(vae.parameters(), 1e-3),
                         torch.optim.Adam(disc.parameters(), 1e-3))


x1, x2 = torch.randn(16, 12), torch.randn(16, 12)
trainer = make()
err = None
try:
    trainer.step(x1, x2)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

# fixed variant: the discriminator term sees a detached copy of z
fixed = make()


def step_fixed(self, x1, x2):
    recon, mu, logvar, z = self.vae(x1)
    d_z = self.disc(z)
    vae_loss = ((recon - x1) ** 2).mean() + self.gamma * (d_z[:, 0] - d_z[:, 1]).mean()
    self.opt_vae.zero_grad(); vae_loss.backward(); self.opt_vae.step()
    d_z2 = self.disc(z.detach())
    d_tc = torch.nn.functional.cross_entropy(d_z2, torch.zeros(x1.size(0), dtype=torch.long))
    self.opt_d.zero_grad(); d_tc.backward(); self.opt_d.step()
    return d_tc.item()


assert isinstance(step_fixed(fixed, x1, x2), float)
print("ok")
