import torch
import torch.nn as nn


def mlp(sizes, out_act=None):
    layers = []
    for i in range(len(sizes) - 1):
        layers.append(nn.Linear(sizes[i], sizes[i + 1]))
        if i < len(sizes) - 2:
            layers.append(nn.ReLU())
    if out_act is not None:
        layers.append(out_act)
    return nn.Sequential(*layers)


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, max_action=2.0):
        super().__init__()
        self.pi = mlp([obs_dim, 64, 64, act_dim], nn.Tanh())
        self.max_action = max_action

    def forward(self, obs):
        return self.max_action * self.pi(obs)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = mlp([obs_dim + act_dim, 64, 64, 1])

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act.detach()], dim=-1)).squeeze(-1)
