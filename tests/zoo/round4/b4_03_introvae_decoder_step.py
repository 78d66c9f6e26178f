"""expect: GL001 61
dynamic: confirm
source: https://github.com/dragen1860/IntroVAE-Pytorch/issues/3

IntroVAE training step with separate encoder and decoder optimisers. In the
encoder phase the reconstructions and prior samples are detached on purpose (the
encoder must not push gradients into the decoder). In the decoder phase the
decoder is supposed to be trained adversarially through the encoder's KL on both
its reconstructions and its samples from the prior, but the prior samples are
still passed to the encoder as `xp.detach()`. The KL term on the samples is
therefore a constant for the decoder: the decoder receives no gradient from the
adversarial prior term, so it never learns to make its samples look real to the
encoder.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class IntroVAE(nn.Module):
    def __init__(self, x_dim=12, z_dim=3, margin=4.0, alpha=0.25, beta=0.5):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(x_dim, 32), nn.ReLU(), nn.Linear(32, 2 * z_dim))
        self.dec = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, x_dim), nn.Tanh())
        self.margin, self.alpha, self.beta = margin, alpha, beta
        self.opt_enc = torch.optim.Adam(self.enc.parameters(), lr=1e-3)
        self.opt_dec = torch.optim.Adam(self.dec.parameters(), lr=1e-3)

    def encode(self, x):
        mu, logvar = self.enc(x).chunk(2, dim=-1)
        return mu, logvar

    @staticmethod
    def sample(mu, logvar):
        return mu + torch.randn_like(mu) * (0.5 * logvar).exp()

    @staticmethod
    def kl(mu, logvar):
        return (-0.5 * (1 + logvar - mu.pow(2) - logvar.exp())).sum(-1).mean()

    def encoder_step(self, x):
        mu, logvar = self.encode(x)
        xr = self.dec(self.sample(mu, logvar))
        xp = self.dec(torch.randn_like(mu))
        rec = F.mse_loss(xr, x)
        kl_r = self.kl(*self.encode(xr.detach()))
        kl_p = self.kl(*self.encode(xp.detach()))
        adv = F.relu(self.margin - kl_r) + F.relu(self.margin - kl_p)
        loss = self.kl(mu, logvar) + self.alpha * adv + self.beta * rec
        self.opt_enc.zero_grad()
        loss.backward()
        self.opt_enc.step()

    def decoder_terms(self, x):
        mu, logvar = self.encode(x)
        z = self.sample(mu, logvar)
        xr = self.dec(z)
        xp = self.dec(torch.randn_like(z))
        rec = F.mse_loss(xr, x)
        kl_r = self.kl(*self.encode(xr))
        kl_p = self.kl(*self.encode(xp.detach()))
        return rec, kl_r, kl_p

    def decoder_step(self, x):
        rec, kl_r, kl_p = self.decoder_terms(x)
        loss = self.alpha * (kl_r + kl_p) + self.beta * rec
        self.opt_dec.zero_grad()
        loss.backward()
        self.opt_dec.step()

    def train_step(self, x):
        self.encoder_step(x)
        self.decoder_step(x)


def main():
    torch.manual_seed(0)
    model = IntroVAE()
    data = torch.rand(16, 12) * 2 - 1
    for _ in range(2):
        model.train_step(data)

    rec, kl_r, kl_p = model.decoder_terms(data)
    dec_params = list(model.dec.parameters())
    g_prior = torch.autograd.grad(kl_p, dec_params, allow_unused=True, retain_graph=True)
    g_recon = torch.autograd.grad(kl_r, dec_params, allow_unused=True)
    assert all(g is None for g in g_prior), "prior-sample adversarial term reaches the decoder"
    assert any(g is not None and g.abs().sum() > 0 for g in g_recon)
    print("decoder gets no gradient from the KL on its prior samples")


if __name__ == "__main__":
    main()
