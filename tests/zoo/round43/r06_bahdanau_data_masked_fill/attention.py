"""Additive (Bahdanau) attention over time-major encoder outputs with an optional source padding mask."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class AdditiveAttention(nn.Module):
    def __init__(self, hidden_size, key_size=None, write_through_data=True):
        super().__init__()
        self.key_size = 2 * hidden_size if key_size is None else key_size
        self.query_layer = nn.Linear(hidden_size, hidden_size)
        self.key_layer = nn.Linear(self.key_size, hidden_size)
        self.energy_layer = nn.Linear(hidden_size, 1)
        self.write_through_data = write_through_data

    def forward(self, hidden, encoder_outputs, src_mask=None):
        query_out = self.query_layer(hidden)
        key_out = self.key_layer(encoder_outputs)
        energies = self.energy_layer(torch.tanh(query_out.unsqueeze(0) + key_out)).squeeze(2)
        if src_mask is not None:
            if self.write_through_data:
                energies.data.masked_fill_(src_mask == 0, float("-inf"))
            else:
                energies = energies.masked_fill(src_mask == 0, float("-inf"))
        weights = F.softmax(energies, dim=0)
        return weights.transpose(0, 1)
