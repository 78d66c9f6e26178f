"""Per-parcel crop yield regressor from multispectral band statistics."""
import torch
from torch import nn


class YieldRegressor(nn.Module):
    def __init__(self, n_features, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_features, hidden), nn.SiLU(),
            nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, 1),
        )

    def forward(self, feats):
        return self.net(feats).squeeze(-1)
