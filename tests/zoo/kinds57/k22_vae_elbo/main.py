"""
expect: GL002 losses.py:12
dynamic: confirm
source: none, invented

A small VAE on binarised 8x8 glyphs. In `losses.py`, `kl_term` computes the Gaussian KL with a free-bits
floor and returns it with `.item()`, and `elbo_loss` adds `beta * kl_term(...)` to the reconstruction
term and returns the sum that the training loop backpropagates. The KL therefore enters the loss as a
plain float: it changes the printed value but contributes no gradient, so nothing pulls the posterior
towards the prior. The asserts show the encoder's gradients under `elbo_loss` equal those of the
reconstruction term alone and differ from the gradients of the true ELBO, and that after training the
KL is far larger than when the KL tensor itself is added.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import elbo_loss, gaussian_kl

torch.manual_seed(0)
torch.set_num_threads(1)

LATENT = 4


class GlyphVAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(64, 64), nn.ReLU())
        self.mu = nn.Linear(64, LATENT)
        self.logvar = nn.Linear(64, LATENT)
        self.dec = nn.Sequential(nn.Linear(LATENT, 64), nn.ReLU(), nn.Linear(64, 64))

    def forward(self, x, eps=None):
        h = self.enc(x)
        mu, logvar = self.mu(h), self.logvar(h)
        eps = torch.randn_like(mu) if eps is None else eps
        z = mu + (0.5 * logvar).exp() * eps
        return self.dec(z), mu, logvar


def true_elbo(recon, x, mu, logvar, beta=1.0):
    rec = F.binary_cross_entropy_with_logits(recon, x, reduction="sum") / x.shape[0]
    return rec + beta * gaussian_kl(mu, logvar)


def reconstruction_only(recon, x, mu, logvar):
    return F.binary_cross_entropy_with_logits(recon, x, reduction="sum") / x.shape[0]


def glyphs(n=512):
    protos = (torch.rand(6, 64) > 0.5).float()
    idx = torch.randint(0, 6, (n,))
    flips = (torch.rand(n, 64) < 0.05).float()
    return (protos[idx] - flips).abs()


def encoder_grad(model, loss_fn, x, eps):
    model.zero_grad()
    recon, mu, logvar = model(x, eps)
    loss_fn(recon, x, mu, logvar).backward()
    return model.mu.weight.grad.clone()


def fit(loss_fn, epochs=30):
    torch.manual_seed(0)
    model = GlyphVAE()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    data = glyphs()
    for epoch in range(epochs):
        for i in range(0, 512, 64):
            x = data[i:i + 64]
            recon, mu, logvar = model(x)
            loss = loss_fn(recon, x, mu, logvar)
            opt.zero_grad()
            loss.backward()
            opt.step()
    with torch.no_grad():
        _, mu, logvar = model(data)
        return gaussian_kl(mu, logvar).item()


if __name__ == "__main__":
    model = GlyphVAE()
    x = glyphs(64)
    eps = torch.randn(64, LATENT)
    g_item = encoder_grad(model, elbo_loss, x, eps)
    g_rec = encoder_grad(model, reconstruction_only, x, eps)
    g_true = encoder_grad(model, true_elbo, x, eps)
    assert torch.allclose(g_item, g_rec)
    assert not torch.allclose(g_item, g_true)

    kl_item = fit(elbo_loss)
    kl_true = fit(true_elbo)
    assert kl_item > 2 * kl_true, (kl_item, kl_true)
    print(f"posterior KL after training: elbo_loss {kl_item:.2f}, true ELBO {kl_true:.2f}")
