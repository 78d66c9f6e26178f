"""GCN layer whose weight is evolved from the previous snapshot by a matrix GRU cell."""
import math

import torch
import torch.nn as nn
from torch.nn import Parameter


class MatGate(nn.Module):
    def __init__(self, rows, cols, activation):
        super().__init__()
        self.activation = activation
        self.W = Parameter(torch.empty(rows, rows).uniform_(-1 / math.sqrt(rows), 1 / math.sqrt(rows)))
        self.U = Parameter(torch.empty(rows, rows).uniform_(-1 / math.sqrt(rows), 1 / math.sqrt(rows)))
        self.bias = Parameter(torch.zeros(rows, cols))

    def forward(self, x, hidden):
        return self.activation(self.W @ x + self.U @ hidden + self.bias)


class MatGRUCell(nn.Module):
    def __init__(self, rows, cols):
        super().__init__()
        self.update = MatGate(rows, cols, torch.sigmoid)
        self.reset = MatGate(rows, cols, torch.sigmoid)
        self.htilda = MatGate(rows, cols, torch.tanh)

    def forward(self, prev_q):
        z = self.update(prev_q, prev_q)
        r = self.reset(prev_q, prev_q)
        h_cap = self.htilda(prev_q, r * prev_q)
        return (1 - z) * prev_q + z * h_cap


class EvolvingGraphConvolution(nn.Module):
    def __init__(self, in_features, out_features, time_step, time_weight, wrap_as_parameter=True):
        super().__init__()
        self.time_step = time_step
        self.time_weight = time_weight
        self.wrap_as_parameter = wrap_as_parameter
        self.evolve_weights = MatGRUCell(in_features, out_features)
        bound = 1 / math.sqrt(out_features)
        self.weight = Parameter(torch.empty(in_features, out_features).uniform_(-bound, bound))
        self.bias = Parameter(torch.zeros(out_features))
        if time_step >= 1 and wrap_as_parameter:
            evolved = self.evolve_weights(self.time_weight)
            self.dgcn_weight = Parameter(evolved)

    def current_weight(self):
        if self.time_step < 1:
            return self.weight
        if self.wrap_as_parameter:
            return self.dgcn_weight
        return self.evolve_weights(self.time_weight)

    def forward(self, x, adj):
        w = self.current_weight()
        return adj @ (x @ w) + self.bias, w
