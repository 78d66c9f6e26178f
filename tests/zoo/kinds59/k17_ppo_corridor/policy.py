import torch
import torch.nn as nn


class CategoricalPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions))

    def forward(self, obs):
        return self.net(obs)

    def sample(self, obs):
        return torch.distributions.Categorical(logits=self(obs)).sample()

    def log_prob(self, obs, actions):
        return torch.log_softmax(self(obs), dim=-1).gather(-1, actions[:, None]).squeeze(-1)

    def entropy(self, obs):
        logp = torch.log_softmax(self(obs), dim=-1)
        return -(logp.exp() * logp).sum(-1)


class ValueNet(nn.Module):
    def __init__(self, obs_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, obs):
        return self.net(obs).squeeze(-1)


class Agent(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.policy = CategoricalPolicy(obs_dim, n_actions)
        self.value = ValueNet(obs_dim)
