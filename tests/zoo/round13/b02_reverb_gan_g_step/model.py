import torch
import torch.nn as nn
import torch.nn.functional as F


class SpecGenerator(nn.Module):
    """Maps an image embedding to a (tiny) reverb spectrogram."""

    def __init__(self, emb=16, bins=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(emb, 48), nn.ReLU(), nn.Linear(48, bins))

    def forward(self, f):
        return torch.tanh(self.net(f))


class SpecDiscriminator(nn.Module):
    def __init__(self, emb=16, bins=24):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(emb + bins, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, spec, f):
        return torch.sigmoid(self.net(torch.cat([spec, f], dim=1)))


class Image2Reverb(nn.Module):
    def __init__(self, adv_weight=1.0, l1_weight=100.0):
        super().__init__()
        self.g = SpecGenerator()
        self.d = SpecDiscriminator()
        self.adv_weight = adv_weight
        self.l1_weight = l1_weight

    def configure_optimizers(self):
        opt_g = torch.optim.Adam(self.g.parameters(), lr=1e-3)
        opt_d = torch.optim.Adam(self.d.parameters(), lr=1e-3)
        return opt_g, opt_d

    def training_step(self, batch, optimizer_idx):
        f, spec = batch
        fake_spec = self.g(f)
        if optimizer_idx == 0:
            d_fake2 = self.d(fake_spec.detach(), f)
            g_loss1 = F.mse_loss(d_fake2, torch.ones_like(d_fake2))
            g_loss2 = F.l1_loss(fake_spec, spec)
            return self.adv_weight * g_loss1 + self.l1_weight * g_loss2
        d_real = self.d(spec, f)
        d_fake = self.d(fake_spec.detach(), f)
        return 0.5 * (F.mse_loss(d_real, torch.ones_like(d_real)) + F.mse_loss(d_fake, torch.zeros_like(d_fake)))
