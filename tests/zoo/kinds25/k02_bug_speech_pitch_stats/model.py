import torch
import torch.nn as nn


class PitchAwareEnhancer(nn.Module):
    """Mask-based speech enhancer with auxiliary frame-energy and pitch heads."""

    def __init__(self, n_bins=32, hidden=48):
        super().__init__()
        self.rnn = nn.GRU(n_bins, hidden, batch_first=True)
        self.mask = nn.Linear(hidden, n_bins)
        self.energy_head = nn.Linear(hidden, 1)
        self.pitch_head = nn.Linear(hidden, 1)

    def forward(self, spec):
        h, _ = self.rnn(spec)
        enhanced = torch.sigmoid(self.mask(h)) * spec
        energy = self.energy_head(h).squeeze(-1)
        pitch = self.pitch_head(h).squeeze(-1)
        stats = (energy.detach(), pitch.detach())
        return enhanced, stats
