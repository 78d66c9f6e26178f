"""
expect: GL002 32
dynamic: confirm
source: kinds check 50, kind 1

A tiny VAE on random 12-d vectors. `elbo_terms` returns the reconstruction and KL
scalars as a tuple; the training step copies that tuple whole with torch.Tensor(...)
to weight the two terms, which drops the autograd history, so backward on the
weighted loss gives the encoder/decoder no gradient at all.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
enc = nn.Linear(12, 2 * 3)
dec = nn.Linear(3, 12)
params = list(enc.parameters()) + list(dec.parameters())
x = torch.randn(32, 12)


def elbo_terms(batch):
    mu, logvar = enc(batch).chunk(2, dim=1)
    z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
    recon = ((dec(z) - batch) ** 2).sum(1).mean()
    kl = (-0.5 * (1 + logvar - mu ** 2 - logvar.exp()).sum(1)).mean()
    return recon, kl


beta = torch.tensor([1.0, 0.25])
for p in params:
    p.grad = None
terms = torch.Tensor(elbo_terms(x))
loss = (terms * beta).sum()
loss.requires_grad_(True)  # "fixes" the backward error
loss.backward()
assert all(p.grad is None for p in params), "bug copy should leave params without grads"

# intended version: the terms keep their history
r, k = elbo_terms(x)
(r * beta[0] + k * beta[1]).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in params)
print("k01 ok: torch.Tensor(tuple) cut the graph")
