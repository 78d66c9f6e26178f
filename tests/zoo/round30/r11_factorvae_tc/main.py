"""
expect: GL005 losses.py:28
dynamic: confirm
source: https://github.com/YannDubs/disentangling-vae/issues/62

FactorVAE training: the loss object first backpropagates the VAE loss with
retain_graph=True and calls the VAE optimizer's step(), then backpropagates the
discriminator's total-correlation loss through d_z, which was computed from the
encoder's output inside the same retained graph. step() edits the encoder weights
in place, and backward needs the weights it saved, so the second backward fails
with a version-counter error (older PyTorch silently used the new weights).
The asserts show the error, and that feeding the discriminator z.detach() works.
"""
import torch
import torch.nn as nn
from losses import FactorLoss, permute_dims

torch.manual_seed(0)
torch.set_num_threads(1)


class TinyVAE(nn.Module):
    def __init__(self, d=12, k=3):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 16), nn.Tanh(), nn.Linear(16, 2 * k))
        self.dec = nn.Sequential(nn.Linear(k, 16), nn.Tanh(), nn.Linear(16, d))

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=1)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar, z


vae = TinyVAE()
disc = nn.Sequential(nn.Linear(3, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
opt_vae = torch.optim.Adam(vae.parameters(), lr=1e-3)
opt_disc = torch.optim.Adam(disc.parameters(), lr=1e-3)
criterion = FactorLoss(disc, opt_disc)

x1, x2 = torch.randn(32, 12), torch.randn(32, 12)
recon, mu, logvar, z = vae(x1)
with torch.no_grad():
    _, _, _, z2 = vae(x2)

err = None
try:
    criterion(recon, x1, mu, logvar, z, z2, opt_vae)
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err

# fixed variant: the discriminator sees a detached z, so its backward stops there
recon, mu, logvar, z = vae(x1)
d_z = disc(z.detach())
d_perm = disc(permute_dims(z2))
loss_d = 0.5 * (nn.functional.cross_entropy(d_z, torch.zeros(32, dtype=torch.long))
                + nn.functional.cross_entropy(d_perm, torch.ones(32, dtype=torch.long)))
opt_disc.zero_grad()
loss_d.backward()
assert disc[0].weight.grad is not None and disc[0].weight.grad.abs().sum() > 0
print("ok: step() between backward calls broke the retained graph")
