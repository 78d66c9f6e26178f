"""Small convolutional keyword spotter for 1-second log-mel clips."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class KeywordSpotter(nn.Module):
    def __init__(self, n_mels=20, n_keywords=6, channels=32):
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, channels, kernel_size=5, padding=2)
        self.conv2 = nn.Conv1d(channels, channels, kernel_size=3, padding=1)
        self.classifier = nn.Linear(channels, n_keywords)
        self.temperature = 1.0

    def set_temperature(self, t):
        self.temperature = float(t)

    def encode(self, mels):
        h = F.relu(self.conv1(mels))
        h = F.relu(self.conv2(h))
        return h.mean(dim=-1)

    def forward(self, mels):
        return self.classifier(self.encode(mels))

    @torch.no_grad()
    def keyword_logprobs(self, mels):
        """Calibrated log-probabilities used by the streaming detector."""
        logits = self(mels) / self.temperature
        return F.log_softmax(logits, dim=-1)
