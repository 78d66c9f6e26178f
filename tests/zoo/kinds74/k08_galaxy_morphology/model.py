"""Galaxy morphology classifier (elliptical / spiral / edge-on) from radial profiles."""
import torch
from torch import nn


class MorphologyNet(nn.Module):
    CLASSES = ("elliptical", "spiral", "edge_on")

    def __init__(self, n_features, hidden=48):
        super().__init__()
        self.mlp = nn.Sequential(
            nn.Linear(n_features, hidden), nn.ReLU(),
            nn.Linear(hidden, len(self.CLASSES)),
        )

    def forward(self, feats):
        return self.mlp(feats)
