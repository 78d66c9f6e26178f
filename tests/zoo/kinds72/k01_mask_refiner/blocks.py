import torch
import torch.nn as nn


class MaskStack(nn.Module):
    """Frame-wise mask estimator: a plain stack of layers ending in a Sigmoid."""

    def __init__(self, n_bins, hidden=64, depth=3):
        super().__init__()
        layers = [nn.Linear(n_bins, hidden), nn.ReLU()]
        for _ in range(depth - 1):
            layers += [nn.Linear(hidden, hidden), nn.ReLU()]
        layers += [nn.Linear(hidden, n_bins), nn.Sigmoid()]
        self.layers = nn.ModuleList(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
