"""
expect: none
dynamic: dismiss
source: kinds check 20, kind 5 (written for this check)

A molecular VAE's loss module reads its KL target from the config
(`self.capacity = cfg.vae.capacity`) and learns a Lagrange multiplier with
`beta_loss = -beta * (kl - self.capacity).detach()`. The detach only keeps the
multiplier's objective from pushing on the model, which the main loss trains;
the asserts show the model's gradient equals the main loss's own and log_beta
gets the multiplier gradient.
"""
from types import SimpleNamespace

import torch
import torch.nn as nn

torch.manual_seed(8)
cfg = SimpleNamespace(vae=SimpleNamespace(capacity=0.5, latent=4))


class CapacityLoss(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.capacity = cfg.vae.capacity
        self.log_beta = nn.Parameter(torch.zeros(()))

    def forward(self, recon, x, mu, logvar):
        rec = nn.functional.mse_loss(recon, x)
        kl = -0.5 * (1 + logvar - mu.pow(2) - logvar.exp()).sum(1).mean()
        beta = self.log_beta.exp()
        main = rec + beta.detach() * (kl - self.capacity)
        beta_loss = -beta * (kl - self.capacity).detach()
        return main, beta_loss, kl


enc, dec = nn.Linear(16, 2 * cfg.vae.latent), nn.Linear(cfg.vae.latent, 16)
crit = CapacityLoss(cfg)
fingerprints = torch.randn(32, 16)
mu, logvar = enc(fingerprints).chunk(2, dim=1)
z = mu + torch.randn_like(mu) * (0.5 * logvar).exp()
main, beta_loss, kl = crit(dec(z), fingerprints, mu, logvar)

(g_main,) = torch.autograd.grad(main, enc.weight, retain_graph=True)
(main + beta_loss).backward()
assert torch.allclose(enc.weight.grad, g_main, atol=1e-6)
expected = -(crit.log_beta.exp() * (kl - cfg.vae.capacity)).item()
assert abs(crit.log_beta.grad.item() - expected) < 1e-5
print("ok: the detach only separates the multiplier's objective")
