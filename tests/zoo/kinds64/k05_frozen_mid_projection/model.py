import torch
import torch.nn as nn


class TabularNet(nn.Module):
    """Feature stem -> random-feature projection -> classifier head."""

    def __init__(self, in_features=10, hidden=32, proj=64, num_classes=2):
        super().__init__()
        self.stem = nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU())
        self.projection = nn.Linear(hidden, proj)
        self.head = nn.Sequential(nn.ReLU(), nn.Linear(proj, num_classes))

    def forward(self, x):
        h = self.stem(x)
        with torch.no_grad():
            h = self.projection(h)
        return self.head(h)
