"""MetricGAN-style speech enhancement: a mask-predicting enhancer and a discriminator
that learns to predict a quality score of (enhanced, clean) spectrogram pairs."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskEnhancer(nn.Module):
    def __init__(self, n_freq=40):
        super().__init__()
        self.rnn = nn.GRU(n_freq, 48, batch_first=True)
        self.out = nn.Linear(48, n_freq)

    def forward(self, noisy_mag):
        h, _ = self.rnn(noisy_mag)
        return noisy_mag * torch.sigmoid(self.out(h))


class MetricDiscriminator(nn.Module):
    def __init__(self, n_freq=40):
        super().__init__()
        self.conv = nn.Conv2d(2, 8, kernel_size=3, padding=1)
        self.fc = nn.Linear(8, 1)

    def forward(self, est_mag, clean_mag):
        x = torch.stack([est_mag, clean_mag], dim=1)
        h = F.leaky_relu(self.conv(x), 0.3).mean(dim=(2, 3))
        return torch.sigmoid(self.fc(h)).squeeze(-1)


def pseudo_quality(est_mag, clean_mag):
    """Stand-in for a non-differentiable quality metric in [0, 1]."""
    err = (est_mag - clean_mag).pow(2).mean(dim=(1, 2))
    return torch.exp(-3.0 * err)


class EnhancementTrainer:
    def __init__(self, n_freq=40, lr=5e-4):
        self.enhancer = MaskEnhancer(n_freq)
        self.disc = MetricDiscriminator(n_freq)
        self.opt_enh = torch.optim.Adam(self.enhancer.parameters(), lr=lr)
        self.opt_disc = torch.optim.Adam(self.disc.parameters(), lr=lr)

    def forward_pass(self, noisy_mag, clean_mag):
        self.noisy, self.clean = noisy_mag, clean_mag
        self.enhanced = self.enhancer(noisy_mag)
        self.pred_quality = self.disc(self.enhanced, clean_mag)

    def update_disc(self):
        with torch.no_grad():
            target_enh = pseudo_quality(self.enhanced, self.clean)
        pred_enh = self.disc(self.enhanced.detach(), self.clean)
        pred_clean = self.disc(self.clean, self.clean)
        loss = F.mse_loss(pred_enh, target_enh) + F.mse_loss(pred_clean, torch.ones_like(pred_clean))
        self.opt_disc.zero_grad()
        loss.backward()
        self.opt_disc.step()
        return loss.item()

    def update_enhancer(self):
        # push the predicted quality of the enhanced output towards the maximum
        adv = F.mse_loss(self.pred_quality, torch.ones_like(self.pred_quality))
        recon = F.l1_loss(self.enhanced, self.clean)
        loss = adv + 0.5 * recon
        self.opt_enh.zero_grad()
        loss.backward()
        self.opt_enh.step()
        return loss.item()
