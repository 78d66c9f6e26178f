"""Actor, centralised critic and the per-agent container with target networks."""
import copy

import torch
import torch.nn as nn


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, act_dim), nn.Tanh())

    def forward(self, o):
        return self.net(o)


class Critic(nn.Module):
    def __init__(self, state_dim, joint_act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim + joint_act_dim, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, s, a):
        return self.net(torch.cat([s, a], dim=1))


class Agent:
    def __init__(self, obs_dim, act_dim, state_dim, joint_act_dim, lr=1e-2):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(state_dim, joint_act_dim)
        self.target_actor = copy.deepcopy(self.actor)
        self.target_critic = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=lr)
