import torch
import torch.nn as nn


class AudioEncoder(nn.Module):
    def __init__(self, n_mels=20, hidden=32, n_classes=5):
        super().__init__()
        self.frontend = nn.Sequential(nn.Linear(n_mels, hidden), nn.GELU())
        self.adapter = nn.Linear(hidden, hidden)
        self.head_proj = nn.Linear(hidden, 16)
        self.classifier = nn.Linear(hidden, n_classes)

    def embed(self, mel):
        return self.frontend(mel).mean(dim=1)

    def forward(self, mel):
        h = self.embed(mel)
        return self.classifier(h), h
