import torch
import torch.nn as nn


class LIFNeuron(nn.Module):
    """Leaky integrate-and-fire neuron with a surrogate (sigmoid) spike."""

    def __init__(self, tau=2.0, v_th=0.5, v_reset=0.0):
        super().__init__()
        self.tau = tau
        self.v_th = v_th
        self.v_reset = v_reset
        self.v = None

    def reset(self):
        self.v = None

    def forward(self, x):
        if self.v is None:
            self.v = torch.full_like(x, self.v_reset)
        self.v = self.v + (x - self.v) / self.tau
        spike = torch.sigmoid(4.0 * (self.v - self.v_th))
        self.v = self.v * (1.0 - spike) + self.v_reset * spike
        return spike


class SpikingMLP(nn.Module):
    def __init__(self, n_in=12, n_hidden=32, n_out=2):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.lif = LIFNeuron()
        self.fc2 = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        return self.fc2(self.lif(self.fc1(x)))
