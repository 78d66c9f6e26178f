"""
expect: none
dynamic: dismiss
source: kinds check 47, kind 1

A small VAE on sensor snippets routes its reconstruction and KL terms through
ensure_trainable(), which would re-leaf a term without history. Both terms are
computed with history, so the guard never fires and the encoder and decoder train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def ensure_trainable(t):
    if not t.requires_grad:
        t.requires_grad_()
    return t


class TinyVAE(nn.Module):
    def __init__(self, d=12, z=3):
        super().__init__()
        self.enc = nn.Linear(d, 2 * z)
        self.dec = nn.Linear(z, d)

    def forward(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        zs = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
        return self.dec(zs), mu, logvar


torch.manual_seed(1)
vae = TinyVAE()
opt = torch.optim.Adam(vae.parameters(), lr=1e-2)
snips = torch.randn(256, 12)
losses = []
for _ in range(60):
    opt.zero_grad()
    recon, mu, logvar = vae(snips)
    rec = ensure_trainable(F.mse_loss(recon, snips))
    kl = ensure_trainable(-0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(-1).mean())
    loss = rec + 0.1 * kl
    loss.backward()
    assert vae.enc.weight.grad.abs().sum() > 0 and vae.dec.weight.grad.abs().sum() > 0
    opt.step()
    losses.append(loss.item())
assert losses[-1] < losses[0]
print("k02 ok: both terms keep history and train", losses[0], losses[-1])
