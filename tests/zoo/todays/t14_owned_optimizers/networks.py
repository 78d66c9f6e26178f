import torch
from torch import nn
from torch.optim import Adam


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, lr=3e-3):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, 24)
        self.fc2 = nn.Linear(24, act_dim)
        self.optimizer = Adam(self.parameters(), lr=lr)

    def forward(self, obs):
        return torch.tanh(self.fc2(torch.relu(self.fc1(obs))))


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim, lr=3e-3):
        super().__init__()
        self.obs_layer = nn.Linear(obs_dim, 24)
        self.joint = nn.Linear(24 + act_dim, 24)
        self.out = nn.Linear(24, 1)
        self.optimizer = Adam(self.parameters(), lr=lr)

    def encode(self, obs):
        return torch.relu(self.obs_layer(obs))

    def score(self, feat, act):
        return self.out(torch.relu(self.joint(torch.cat([feat, act], dim=-1))))
