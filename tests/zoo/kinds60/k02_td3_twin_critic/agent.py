import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def mlp(inp, out, hidden=64):
    return nn.Sequential(nn.Linear(inp, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
                         nn.Linear(hidden, out))


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = mlp(obs_dim, act_dim)

    def forward(self, obs):
        return torch.tanh(self.net(obs))


class QNet(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = mlp(obs_dim + act_dim, 1)

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1))


class TwinCritic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.q1 = QNet(obs_dim, act_dim)
        self.q2 = QNet(obs_dim, act_dim)


class TD3Agent:
    def __init__(self, obs_dim, act_dim, lr=1e-3, gamma=0.9, tau=0.01, policy_delay=2,
                 target_noise=0.2, noise_clip=0.5):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = TwinCritic(obs_dim, act_dim)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=lr)
        self.q1_opt = torch.optim.Adam(self.critic.q1.parameters(), lr=lr)
        self.q2_opt = torch.optim.Adam(self.critic.q2.parameters(), lr=lr)
        self.gamma = gamma
        self.tau = tau
        self.policy_delay = policy_delay
        self.target_noise = target_noise
        self.noise_clip = noise_clip
        self.total_it = 0

    def update(self, obs, act, rew, next_obs, done):
        self.total_it += 1
        with torch.no_grad():
            noise = (torch.randn_like(act) * self.target_noise).clamp(-self.noise_clip, self.noise_clip)
            next_act = (self.actor_target(next_obs) + noise).clamp(-1.0, 1.0)
            target_q = torch.min(self.critic_target.q1(next_obs, next_act),
                                 self.critic_target.q2(next_obs, next_act))
            y = rew + self.gamma * (1.0 - done) * target_q

        q1_loss = F.mse_loss(self.critic.q1(obs, act), y)
        q2_loss = F.mse_loss(self.critic.q2(obs, act), y)

        self.q1_opt.zero_grad()
        q1_loss.backward()
        self.q1_opt.step()

        self.q2_opt.zero_grad()
        q2_loss.backward()
        self.q2_opt.step()

        info = {"q1_loss": q1_loss.item(), "q2_loss": q2_loss.item()}
        if self.total_it % self.policy_delay == 0:
            actor_loss = -self.critic.q1(obs, self.actor(obs)).mean()
            self.actor_opt.zero_grad()
            actor_loss.backward()
            self.actor_opt.step()
            self.soft_update(self.actor, self.actor_target)
            self.soft_update(self.critic, self.critic_target)
            info["actor_loss"] = actor_loss.item()
        return info

    @torch.no_grad()
    def soft_update(self, net, target):
        for p, tp in zip(net.parameters(), target.parameters()):
            tp.mul_(1.0 - self.tau).add_(self.tau * p)
