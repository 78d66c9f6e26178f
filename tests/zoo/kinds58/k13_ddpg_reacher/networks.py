"""Actor and critic networks for the DDPG reacher experiments."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=(128, 128)):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hidden[0])
        self.fc2 = nn.Linear(hidden[0], hidden[1])
        self.mu = nn.Linear(hidden[1], act_dim)

    def forward(self, obs):
        x = F.relu(self.fc1(obs))
        x = F.relu(self.fc2(x))
        return torch.tanh(self.mu(x))


class Critic(nn.Module):
    """Q(s, a) with the action injected after the first layer (as in the DDPG paper)."""

    def __init__(self, obs_dim, act_dim, hidden=(128, 128)):
        super().__init__()
        self.obs_fc = nn.Linear(obs_dim, hidden[0])
        self.joint_fc = nn.Linear(hidden[0] + act_dim, hidden[1])
        self.q_out = nn.Linear(hidden[1], 1)

    def forward(self, obs, action):
        action = action.detach()
        h = F.relu(self.obs_fc(obs))
        h = F.relu(self.joint_fc(torch.cat([h, action], dim=-1)))
        return self.q_out(h)


class CriticV2(Critic):
    def forward(self, obs, action):
        h = F.relu(self.obs_fc(obs))
        h = F.relu(self.joint_fc(torch.cat([h, action], dim=-1)))
        return self.q_out(h)
