import torch.nn as nn

from noisy import NoisyLinear


class NoisyQNetwork(nn.Module):
    def __init__(self, obs_dim=6, n_actions=3, hidden=32, head_cls=NoisyLinear):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.hidden_noisy = head_cls(hidden, hidden)
        self.out_noisy = head_cls(hidden, n_actions)

    def resample(self):
        self.hidden_noisy.resample()
        self.out_noisy.resample()

    def forward(self, obs):
        h = self.body(obs)
        h = nn.functional.relu(self.hidden_noisy(h))
        return self.out_noisy(h)
