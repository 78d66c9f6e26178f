"""VAE-GAN pieces: encoder, decoder, feature discriminator and the three losses of the training script."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Encoder(nn.Module):
    def __init__(self, d_in=16, d_hid=32, z=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(d_in, d_hid), nn.ReLU(), nn.Linear(d_hid, d_hid), nn.ReLU())
        self.mu = nn.Linear(d_hid, z)
        self.logvar = nn.Linear(d_hid, z)

    def forward(self, x):
        h = self.body(x)
        return self.mu(h), self.logvar(h)


class Decoder(nn.Module):
    def __init__(self, z=4, d_hid=32, d_out=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z, d_hid), nn.ReLU(), nn.Linear(d_hid, d_out), nn.Tanh())

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, d_in=16, d_hid=32):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(d_in, d_hid), nn.LeakyReLU(0.2))
        self.out = nn.Linear(d_hid, 1)

    def forward(self, x):
        f = self.features(x)
        return self.out(f), f


class VaeGan(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()
        self.discriminator = Discriminator()

    def forward(self, x):
        mu, logvar = self.encoder(x)
        z = mu + torch.randn_like(mu) * torch.exp(0.5 * logvar)
        recon = self.decoder(z)
        sampled = self.decoder(torch.randn_like(mu))
        logits, layers = self.discriminator(torch.cat([x, recon, sampled], dim=0))
        return recon, logits, layers, mu, logvar


def vaegan_losses(x, logits, layers, mu, logvar, lambda_mse=1e-2):
    b = x.shape[0]
    layer_real, layer_recon = layers[:b], layers[b:2 * b]
    logit_real, logit_fake = logits[:b], logits[b:]
    kl = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    mse = torch.sum((layer_recon - layer_real.detach()) ** 2)
    bce_real = F.binary_cross_entropy_with_logits(logit_real, torch.ones_like(logit_real), reduction="sum")
    bce_fake = F.binary_cross_entropy_with_logits(logit_fake, torch.zeros_like(logit_fake), reduction="sum")
    loss_encoder = kl + mse
    loss_discriminator = bce_real + bce_fake
    loss_decoder = lambda_mse * mse - (1.0 - lambda_mse) * loss_discriminator
    return loss_encoder, loss_decoder, loss_discriminator
