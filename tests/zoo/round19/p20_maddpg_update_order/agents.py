"""DDPG-style agent used by MADDPG: deterministic policy, centralized critic, target copies."""
import copy
import torch
import torch.nn as nn


def mlp(inp, out, hidden=32, out_act=None):
    layers = [nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, out)]
    if out_act is not None:
        layers.append(out_act)
    return nn.Sequential(*layers)


class DDPGAgent:
    def __init__(self, num_in_pol, num_out_pol, num_in_critic, lr=1e-2):
        self.policy = mlp(num_in_pol, num_out_pol, out_act=nn.Tanh())
        self.critic = mlp(num_in_critic, 1)
        self.target_policy = copy.deepcopy(self.policy)
        self.target_critic = copy.deepcopy(self.critic)
        self.policy_optimizer = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=lr)


def soft_update(target, source, tau):
    with torch.no_grad():
        for t, s in zip(target.parameters(), source.parameters()):
            t.mul_(1.0 - tau).add_(tau * s)
