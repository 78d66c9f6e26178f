"""Stateful LSTM transcriber: spectrogram frames in, piano-roll logits out, state kept between calls."""
import torch
import torch.nn as nn


class Transcriber(nn.Module):
    def __init__(self, n_bins=24, hidden=32, n_pitches=16):
        super().__init__()
        self.hidden_size = hidden
        self.lstm = nn.LSTM(n_bins, hidden)  # (time, batch, feature)
        self.head = nn.Linear(hidden, n_pitches)
        self.reset_hidden()

    def reset_hidden(self):
        self.hidden = torch.zeros(1, 1, self.hidden_size)
        self.cell = torch.zeros(1, 1, self.hidden_size)

    def forward(self, frames):
        out, (hidden, cell) = self.lstm(frames, (self.hidden, self.cell))
        self.hidden = hidden  # carried into the next chunk of the same recording
        self.cell = cell
        return self.head(out)

    def detach_hidden(self):
        self.hidden = self.hidden.detach()
        self.cell = self.cell.detach()
