"""Small Gaussian VAE whose reparameterisation sampler edits its input in place."""
import torch
import torch.nn as nn


class VAE(nn.Module):
    def __init__(self, d_in=64, d_hidden=32, d_z=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, d_hidden), nn.ReLU())
        self.enc_mu = nn.Linear(d_hidden, d_z)
        # the log-sigma head is squashed by tanh so that the scale stays bounded
        self.enc_logsigma = nn.Sequential(nn.Linear(d_hidden, d_z), nn.Tanh())
        self.decoder = nn.Sequential(
            nn.Linear(d_z, d_hidden), nn.ReLU(), nn.Linear(d_hidden, d_in)
        )

    def gaussian_sampler(self, mu, logsigma):
        if self.training:
            std = logsigma.exp_()
            eps = torch.randn_like(std)
            return eps.mul(std).add_(mu)
        return mu

    def encode(self, x):
        h = self.encoder(x)
        return self.enc_mu(h), self.enc_logsigma(h)

    def forward(self, x):
        mu, logsigma = self.encode(x)
        z = self.gaussian_sampler(mu, logsigma)
        return self.decoder(z), mu, logsigma
