"""Learnable front end and keyword classifier for the keyword-spotting demo."""
import torch
import torch.nn as nn


class ConvFrontend(nn.Module):
    """Learnable filterbank: two strided 1-D convolutions over the raw waveform."""

    def __init__(self, n_filters=16):
        super().__init__()
        self.conv1 = nn.Conv1d(1, n_filters, kernel_size=25, stride=10)
        self.conv2 = nn.Conv1d(n_filters, n_filters, kernel_size=5, stride=2)

    def forward(self, wav):
        h = torch.relu(self.conv1(wav.unsqueeze(1)))
        return torch.log1p(torch.nn.functional.softplus(self.conv2(h)))  # (B, F, frames)


class KeywordClassifier(nn.Module):
    def __init__(self, n_filters=16, n_words=5, hid=24):
        super().__init__()
        self.gru = nn.GRU(n_filters, hid, batch_first=True)
        self.out = nn.Linear(hid, n_words)

    def forward(self, feats):
        _, h = self.gru(feats.transpose(1, 2))
        return self.out(h[-1])
