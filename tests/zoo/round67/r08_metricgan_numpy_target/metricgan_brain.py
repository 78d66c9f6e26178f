"""MetricGAN-style training: D learns a non-differentiable quality metric, G climbs D."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def quality_metric(enhanced, clean):
    """Non-differentiable speech-quality score in [0, 1] (stand-in for PESQ).

    Works on NumPy arrays, like the pesq / pystoi packages do."""
    err = np.mean((enhanced - clean) ** 2, axis=1)
    sig = np.mean(clean ** 2, axis=1)
    snr = 10 * np.log10(sig / (err + 1e-8))
    return np.clip(np.round(snr) / 20.0, 0.0, 1.0)


class MaskGenerator(nn.Module):
    def __init__(self, n_bins=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_bins, 64), nn.ReLU(), nn.Linear(64, n_bins))

    def forward(self, noisy_spec):
        return torch.sigmoid(self.net(noisy_spec)) * noisy_spec


class MetricDiscriminator(nn.Module):
    def __init__(self, n_bins=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * n_bins, 64), nn.LeakyReLU(0.2),
                                 nn.Linear(64, 1), nn.Sigmoid())

    def forward(self, spec, clean_spec):
        return self.net(torch.cat([spec, clean_spec], dim=1)).squeeze(1)


class MetricGANBrain:
    def __init__(self, n_bins=32):
        self.generator = MaskGenerator(n_bins)
        self.discriminator = MetricDiscriminator(n_bins)
        self.g_optimizer = torch.optim.Adam(self.generator.parameters(), lr=1e-3)
        self.d_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=2e-3)

    def target_scores(self, spec, clean_spec):
        scores = quality_metric(spec.detach().cpu().numpy(), clean_spec.cpu().numpy())
        return torch.tensor(scores, dtype=torch.float32)

    def fit_discriminator(self, noisy, clean):
        enhanced = self.generator(noisy).detach()
        self.d_optimizer.zero_grad()
        loss = 0.0
        for spec in (enhanced, noisy, clean):
            loss = loss + F.mse_loss(self.discriminator(spec, clean),
                                     self.target_scores(spec, clean))
        loss.backward()
        self.d_optimizer.step()
        return loss.item()

    def fit_generator(self, noisy, clean):
        self.g_optimizer.zero_grad()
        enhanced = self.generator(noisy)
        est_score = self.discriminator(enhanced, clean)
        # push D's predicted quality for the enhanced signal towards the maximum
        loss = F.mse_loss(est_score, torch.ones_like(est_score))
        loss.backward()
        self.g_optimizer.step()
        self.d_optimizer.zero_grad()          # D grads from this pass are thrown away
        return loss.item()
