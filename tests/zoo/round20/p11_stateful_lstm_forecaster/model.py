"""Stateful LSTM forecaster: the hidden state is kept between calls."""
import torch
import torch.nn as nn


class StatefulForecaster(nn.Module):
    def __init__(self, n_in=3, hidden=16):
        super().__init__()
        self.rnn = nn.LSTM(n_in, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_in)
        self.hidden_size = hidden
        self.hidden = None

    def reset_state(self, batch):
        z = torch.zeros(1, batch, self.hidden_size)
        self.hidden = (z, z.clone())

    def forward(self, x):
        out, self.hidden = self.rnn(x, self.hidden)
        return self.head(out)
