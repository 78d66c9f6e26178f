"""1-D CNN beat classifier."""
import torch
import torch.nn as nn

from .filters import bandpass


class BeatCNN(nn.Module):
    def __init__(self, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(1, 8, 7, padding=3), nn.ReLU(), nn.MaxPool1d(4),
            nn.Conv1d(8, 16, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        )
        self.fc = nn.Linear(16, n_classes)

    def forward(self, raw):
        x = bandpass(raw).unsqueeze(1)
        return self.fc(self.features(x).flatten(1))
