"""Recurrent virtual-camera predictor whose LSTM state lives on the module between calls."""
import torch
from torch import nn


class LayerLSTM(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.cell = nn.LSTMCell(input_size, hidden_size)
        self.hidden_size = hidden_size

    def init_hidden(self, batch_size):
        self.hx = torch.zeros(batch_size, self.hidden_size)
        self.cx = torch.zeros(batch_size, self.hidden_size)

    def forward(self, x):
        self.hx, self.cx = self.cell(x, (self.hx, self.cx))
        return self.hx


class StabilizationNet(nn.Module):
    """Maps gyro-derived real camera motion to a smoothed virtual camera rotation."""

    def __init__(self, in_dim=8, hidden=16):
        super().__init__()
        self.embed = nn.Linear(in_dim, hidden)
        self.rnn = LayerLSTM(hidden, hidden)
        self.head = nn.Linear(hidden, 4)

    def init_hidden(self, batch_size):
        self.rnn.init_hidden(batch_size)

    def forward(self, x):
        quat = self.head(self.rnn(torch.relu(self.embed(x))))
        return quat / quat.norm(dim=-1, keepdim=True)
