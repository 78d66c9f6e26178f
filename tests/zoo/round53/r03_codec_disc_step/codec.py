"""Toy neural audio codec (conv encoder/decoder) and a feature-returning waveform discriminator."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCodec(nn.Module):
    def __init__(self, ch=8, latent=4):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv1d(1, ch, 5, stride=2, padding=2), nn.ELU(),
            nn.Conv1d(ch, latent, 5, stride=2, padding=2),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose1d(latent, ch, 4, stride=2, padding=1), nn.ELU(),
            nn.ConvTranspose1d(ch, 1, 4, stride=2, padding=1),
        )

    def forward(self, wav):
        z = self.encoder(wav)
        zq = torch.round(z * 4) / 4  # crude scalar quantiser
        zq = z + (zq - z).detach()  # straight-through estimator
        commit = F.mse_loss(z, zq.detach())
        return self.decoder(zq), commit


class WaveDiscriminator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.layers = nn.ModuleList([
            nn.Sequential(nn.Conv1d(1, ch, 7, padding=3), nn.LeakyReLU(0.2)),
            nn.Sequential(nn.Conv1d(ch, ch, 5, stride=2, padding=2), nn.LeakyReLU(0.2)),
            nn.Sequential(nn.Conv1d(ch, ch, 5, stride=2, padding=2), nn.LeakyReLU(0.2)),
        ])
        self.out = nn.Conv1d(ch, 1, 3, padding=1)

    def forward(self, wav):
        fmaps = []
        h = wav
        for layer in self.layers:
            h = layer(h)
            fmaps.append(h)
        return self.out(h), fmaps


def disc_loss(logits_real, logits_fake):
    return F.relu(1 - logits_real).mean() + F.relu(1 + logits_fake).mean()


def total_loss(fmap_real, logits_fake, fmap_fake, wav, output):
    adv = F.relu(1 - logits_fake).mean()
    feat = sum(F.l1_loss(ff, fr) for fr, ff in zip(fmap_real, fmap_fake)) / len(fmap_real)
    rec = F.l1_loss(output, wav)
    return adv + feat + rec
