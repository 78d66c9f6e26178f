import torch
import torch.nn as nn
import torch.nn.functional as F


class FrameEncoder(nn.Module):
    """Conv encoder over (batch, mel, time) features; used as a fixed, pretrained feature extractor."""

    def __init__(self, n_mels=20, width=32):
        super().__init__()
        self.stem = nn.Conv1d(n_mels, width, 5, padding=2)
        self.blocks = nn.Sequential(
            nn.Conv1d(width, width, 3, padding=1), nn.ReLU(),
            nn.Conv1d(width, width, 3, padding=1), nn.ReLU(),
        )

    def forward(self, mel):
        with torch.no_grad():
            h = F.relu(self.stem(mel))
        return self.blocks(h)


class KeywordHead(nn.Module):
    """Normalises pooled encoder features with running statistics and classifies them."""

    def __init__(self, width, n_words, momentum=0.1):
        super().__init__()
        self.register_buffer("feat_mean", torch.zeros(width))
        self.register_buffer("feat_var", torch.ones(width))
        self.momentum = momentum
        self.fc = nn.Linear(width, n_words)

    def forward(self, h):
        pooled = h.mean(dim=-1)
        if self.training:
            batch_mean = pooled.mean(0).detach()
            batch_var = pooled.var(0, unbiased=False).detach()
            with torch.no_grad():
                self.feat_mean.lerp_(batch_mean, self.momentum)
                self.feat_var.lerp_(batch_var, self.momentum)
        z = (pooled - self.feat_mean) / (self.feat_var + 1e-5).sqrt()
        return self.fc(z)
