"""
expect: GL001 32
dynamic: confirm
source: kinds check 24, kind 2 (written for this check)

A mel-frame VAE returns `recon, mu.detach(), logvar.detach()`; the trainer builds the KL term
from those two detached values alone and adds `beta * kl` to the reconstruction loss, so the
KL never shapes the encoder. The asserts show the KL is nonzero, every gradient is identical
with beta 0 and 1, and a separate subclass returning attached statistics gets a different
gradient from the same KL.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class MelVAE(nn.Module):
    def __init__(self, n_mels=20, z_dim=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(n_mels, 32), nn.Tanh())
        self.to_mu = nn.Linear(32, z_dim)
        self.to_logvar = nn.Linear(32, z_dim)
        self.dec = nn.Sequential(nn.Linear(z_dim, 32), nn.Tanh(), nn.Linear(32, n_mels))

    def forward(self, frames):
        h = self.enc(frames)
        mu, logvar = self.to_mu(h), self.to_logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu.detach(), logvar.detach()


class AttachedMelVAE(MelVAE):
    def forward(self, frames):
        h = self.enc(frames)
        mu, logvar = self.to_mu(h), self.to_logvar(h)
        z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(z), mu, logvar


class VAETrainer:
    def __init__(self, model, beta):
        self.model, self.beta = model, beta
        self.opt = torch.optim.Adam(model.parameters(), lr=1e-3)

    def loss(self, frames):
        recon, mu, logvar = self.model(frames)
        rec = F.mse_loss(recon, frames)
        kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
        return rec + self.beta * kl, kl

    def grads(self, frames):
        torch.manual_seed(123)
        self.opt.zero_grad()
        loss, kl = self.loss(frames)
        loss.backward()
        return {n: p.grad.clone() for n, p in self.model.named_parameters()}, kl.item()


frames = torch.randn(16, 20) * 2.0
vae = MelVAE()
g0, _ = VAETrainer(vae, beta=0.0).grads(frames)
g1, kl = VAETrainer(vae, beta=1.0).grads(frames)
assert kl > 1e-3, kl
assert all(torch.equal(g0[n], g1[n]) for n in g0), "KL reached the encoder"

fixed = AttachedMelVAE()
fixed.load_state_dict(vae.state_dict())
f0, _ = VAETrainer(fixed, beta=0.0).grads(frames)
f1, _ = VAETrainer(fixed, beta=1.0).grads(frames)
assert not torch.allclose(f0["to_mu.weight"], f1["to_mu.weight"])
assert torch.equal(f0["to_mu.weight"], g0["to_mu.weight"])
print("bug confirmed: KL built from detached mu/logvar gives no gradient")
