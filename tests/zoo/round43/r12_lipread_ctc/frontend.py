"""Tiny visual speech recognition model: per-frame mouth-crop encoder, temporal GRU, character classifier."""
import torch.nn as nn


class LipReader(nn.Module):
    def __init__(self, crop=8, hidden=24, vocab=6):
        super().__init__()
        self.frame_encoder = nn.Sequential(
            nn.Conv2d(1, 4, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(2), nn.Flatten(),
            nn.Linear(16, hidden), nn.ReLU(),
        )
        self.temporal = nn.GRU(hidden, hidden, batch_first=True)
        self.classifier = nn.Linear(hidden, vocab)

    def forward(self, video):
        # video: (B, T, H, W) grayscale mouth crops
        b, t, h, w = video.shape
        feats = self.frame_encoder(video.reshape(b * t, 1, h, w)).reshape(b, t, -1)
        seq, _ = self.temporal(feats)
        return self.classifier(seq)  # (B, T, vocab), blank = 0
