"""SLM adversarial losses for a StyleTTS2-like TTS model.

A frozen speech language model (a stand-in for WavLM) turns waveforms into
hidden features; a small trainable discriminator head (``wd``) scores those
features. The discriminator loss is computed on the detached fake audio, the
generator (adversarial) loss on the fake audio with its history, both through
the same ``wd`` weights.
"""
import torch
import torch.nn as nn


class FrozenSLM(nn.Module):
    def __init__(self, n_samples=64, n_feat=24):
        super().__init__()
        self.proj = nn.Linear(n_samples, n_feat)
        for p in self.parameters():
            p.requires_grad = False

    def forward(self, wav):
        return torch.tanh(self.proj(wav))


class SLMDiscriminator(nn.Module):
    def __init__(self, n_feat=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, feats):
        return self.net(feats)


class SLMAdversarialLoss(nn.Module):
    def __init__(self, slm, wd):
        super().__init__()
        self.slm, self.wd = slm, wd

    def discriminator(self, wav, y_rec):
        with torch.no_grad():
            real = self.slm(wav)
            fake = self.slm(y_rec)
        return torch.mean((1 - self.wd(real)) ** 2) + torch.mean(self.wd(fake) ** 2)

    def generator(self, y_rec):
        return torch.mean((1 - self.wd(self.slm(y_rec))) ** 2)

    def forward(self, wav, y_pred):
        d_loss = self.discriminator(wav.detach(), y_pred.detach())
        gen_loss = self.generator(y_pred)
        return d_loss, gen_loss
