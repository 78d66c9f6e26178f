"""Seismic phase picker: classifies 3-component waveform windows as noise / P / S."""
import torch
from torch import nn
import torch.nn.functional as F

from lightning_stub import LightningModule


class WaveformEncoder(nn.Module):
    """1-D conv stack over (batch, 3 components, samples) -> fixed-size embedding."""

    def __init__(self, n_components=3, width=16, emb_dim=32):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(n_components, width, kernel_size=7, padding=3),
            nn.GELU(),
            nn.Conv1d(width, width, kernel_size=5, padding=2, stride=2),
            nn.GELU(),
            nn.Conv1d(width, emb_dim, kernel_size=3, padding=1),
        )

    def forward(self, x):
        h = self.conv(x)
        return torch.cat([h.mean(dim=-1), h.amax(dim=-1)], dim=-1)


class PhasePicker(LightningModule):
    PHASES = ("noise", "P", "S")

    def __init__(self, n_components=3, emb_dim=32, lr=3e-3):
        super().__init__()
        self.lr = lr
        self.encoder = WaveformEncoder(n_components, emb_dim=emb_dim)
        self.head = nn.Linear(2 * emb_dim, len(self.PHASES))

    @staticmethod
    def _standardize(waveforms):
        centred = waveforms - waveforms.mean(dim=-1, keepdim=True)
        return centred / (centred.std(dim=-1, keepdim=True) + 1e-6)

    @torch.no_grad()
    def forward(self, waveforms):
        """Embed waveform windows (used by the catalogue feature-export job)."""
        return self.encoder(self._standardize(waveforms))

    def training_step(self, batch, batch_idx):
        waveforms, phase = batch
        features = self.forward(waveforms)
        logits = self.head(features)
        loss = F.cross_entropy(logits, phase)
        self.log("train/loss", loss, prog_bar=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.lr)
