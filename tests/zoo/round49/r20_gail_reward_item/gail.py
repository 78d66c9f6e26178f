"""GAIL pieces: discriminator, Gaussian policy, value net, discriminator-derived reward and the update step."""
import math

import torch
import torch.nn as nn


class Discriminator(nn.Module):
    """Outputs the probability that a (state, action) pair came from the policy rather than the expert."""

    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 32), nn.Tanh(), nn.Linear(32, 1), nn.Sigmoid())

    def forward(self, sa):
        return self.net(sa)


class GaussianPolicy(nn.Module):
    def __init__(self, s_dim, a_dim):
        super().__init__()
        self.mean = nn.Sequential(nn.Linear(s_dim, 32), nn.Tanh(), nn.Linear(32, a_dim))
        self.log_std = nn.Parameter(torch.zeros(a_dim))

    def dist(self, s):
        return torch.distributions.Normal(self.mean(s), self.log_std.exp())


def expert_reward(discrim_net, state, action):
    state_action = torch.cat([state, action], dim=-1)
    with torch.no_grad():
        return -math.log(discrim_net(state_action)[0].item())


def update_params(policy, value_net, discrim_net, opt_pi, opt_v, opt_d, states, actions, rewards, expert_sa,
                  gamma=0.95, clip=0.2):
    with torch.no_grad():
        old_log_prob = policy.dist(states).log_prob(actions).sum(-1)
        values = value_net(states).squeeze(-1)
    returns = torch.zeros(len(rewards))
    running = 0.0
    for t in reversed(range(len(rewards))):
        running = rewards[t] + gamma * running
        returns[t] = running
    advantages = returns - values
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)

    # discriminator: policy pairs -> 1, expert pairs -> 0
    g_o = discrim_net(torch.cat([states, actions], 1))
    e_o = discrim_net(expert_sa)
    bce = nn.BCELoss()
    d_loss = bce(g_o, torch.ones_like(g_o)) + bce(e_o, torch.zeros_like(e_o))
    opt_d.zero_grad()
    d_loss.backward()
    opt_d.step()

    v_loss = (value_net(states).squeeze(-1) - returns).pow(2).mean()
    opt_v.zero_grad()
    v_loss.backward()
    opt_v.step()

    ratio = torch.exp(policy.dist(states).log_prob(actions).sum(-1) - old_log_prob)
    surr = torch.min(ratio * advantages, ratio.clamp(1 - clip, 1 + clip) * advantages)
    pi_loss = -surr.mean()
    opt_pi.zero_grad()
    pi_loss.backward()
    opt_pi.step()
    return d_loss.item(), pi_loss.item()
