"""EvolveGCN-O style layer whose evolved GCN weight is kept on the module between calls."""
import math

import torch
import torch.nn as nn


class EvolvingGCNLayer(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.initial_weight = nn.Parameter(torch.empty(1, channels, channels))
        bound = math.sqrt(6.0 / (2 * channels))
        with torch.no_grad():
            self.initial_weight.uniform_(-bound, bound)
        self.evolver = nn.GRU(input_size=channels, hidden_size=channels, num_layers=1)
        self.weight = None  # evolved weight, carried from one call to the next

    def reset_evolution(self):
        self.weight = None

    def forward(self, x, a_hat):
        start = self.initial_weight if self.weight is None else self.weight
        _, self.weight = self.evolver(start, start)
        return a_hat @ (x @ self.weight.squeeze(0))


class RecurrentEvolveGCN(nn.Module):
    def __init__(self, node_features):
        super().__init__()
        self.recurrent = EvolvingGCNLayer(node_features)
        self.readout = nn.Linear(node_features, 1)

    def forward(self, x, a_hat):
        h = torch.tanh(self.recurrent(x, a_hat))
        return self.readout(h)
