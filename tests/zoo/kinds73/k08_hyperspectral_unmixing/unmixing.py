"""Linear spectral unmixing autoencoder for hyperspectral pixels."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class UnmixingNet(nn.Module):
    """Encoder -> abundances on the simplex -> linear mixing with learnable endmember spectra."""

    def __init__(self, n_bands=60, n_endmembers=4, hidden=32, smooth_weight=0.5):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_bands, hidden), nn.ReLU(),
                                     nn.Linear(hidden, n_endmembers))
        self.endmembers = nn.Parameter(torch.rand(n_endmembers, n_bands))
        self.smooth_weight = smooth_weight
        self.refresh_penalty()

    def refresh_penalty(self):
        """Spectral smoothness of the current endmembers (reflectance varies slowly by band)."""
        e = self.endmembers
        self.smoothness = self.smooth_weight * (e[:, 1:] - e[:, :-1]).pow(2).sum(dim=1).mean()
        return self.smoothness

    def abundances(self, pixels):
        return F.softmax(self.encoder(pixels), dim=-1)

    def forward(self, pixels):
        return self.abundances(pixels) @ self.endmembers.clamp(min=0)
