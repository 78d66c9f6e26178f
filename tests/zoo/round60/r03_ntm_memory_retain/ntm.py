import torch
import torch.nn as nn
import torch.nn.functional as F


class NTM(nn.Module):
    """Tiny neural Turing machine: one combined read/write head over an M x N memory."""

    def __init__(self, num_inputs, M=8, N=6, hidden=24):
        super().__init__()
        self.M, self.N = M, N
        self.controller = nn.Linear(num_inputs, hidden)
        self.head = nn.Linear(hidden, N + 1 + N + N)     # key, strength, erase, add
        self.fc_out = nn.Linear(N, num_inputs)
        self.initialize_state()

    def initialize_state(self):
        g = torch.Generator().manual_seed(3)
        self.memory = torch.rand(self.M, self.N, generator=g) * 0.1
        self.last_read = torch.zeros(self.N)

    def _address(self, k, beta):
        sim = F.cosine_similarity(self.memory, k.unsqueeze(0), dim=1)
        return torch.softmax(F.softplus(beta) * sim, dim=0)

    def forward(self, x=None):
        if x is None:
            x = torch.zeros(self.controller.in_features)
        h = torch.sigmoid(self.controller(x))
        k, beta, e, a = torch.split(self.head(h), [self.N, 1, self.N, self.N])
        w = self._address(torch.tanh(k), beta)
        erase = torch.outer(w, torch.sigmoid(e))
        add = torch.outer(w, torch.tanh(a))
        self.memory = self.memory * (1 - erase) + add
        self.last_read = w @ self.memory
        return torch.sigmoid(self.fc_out(self.last_read))
