"""Discrete-action soft actor-critic agent (policy / critic / temperature updates)."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class TwinQ(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.q1 = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))
        self.q2 = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs):
        return self.q1(obs), self.q2(obs)


class CategoricalPolicy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, n_actions))

    def forward(self, obs):
        logits = self.net(obs)
        return F.softmax(logits, -1), F.log_softmax(logits, -1)


class SacDiscreteAgent:
    def __init__(self, obs_dim, n_actions, gamma=0.99, tau=0.01):
        self.policy = CategoricalPolicy(obs_dim, n_actions)
        self.online_critic = TwinQ(obs_dim, n_actions)
        self.target_critic = copy.deepcopy(self.online_critic).requires_grad_(False)
        self.log_alpha = torch.zeros(1, requires_grad=True)
        self.target_entropy = 0.98 * torch.log(torch.tensor(float(n_actions)))
        self.policy_optim = torch.optim.Adam(self.policy.parameters(), lr=3e-3)
        self.q_optim = torch.optim.Adam(self.online_critic.parameters(), lr=3e-3)
        self.alpha_optim = torch.optim.Adam([self.log_alpha], lr=3e-3)
        self.gamma, self.tau = gamma, tau

    @property
    def alpha(self):
        return self.log_alpha.exp()

    def calc_critic_loss(self, obs, actions, rewards, next_obs, dones):
        q1, q2 = self.online_critic(obs)
        q1 = q1.gather(1, actions[:, None]).squeeze(1)
        q2 = q2.gather(1, actions[:, None]).squeeze(1)
        with torch.no_grad():
            probs, log_probs = self.policy(next_obs)
            nq1, nq2 = self.target_critic(next_obs)
            next_v = (probs * (torch.min(nq1, nq2) - self.alpha * log_probs)).sum(1)
            target_q = rewards + (1 - dones) * self.gamma * next_v
        return F.mse_loss(q1, target_q) + F.mse_loss(q2, target_q)

    def calc_policy_loss(self, obs):
        probs, log_probs = self.policy(obs)
        with torch.no_grad():
            q1, q2 = self.online_critic(obs)
            q = torch.min(q1, q2)
        entropies = -(probs * log_probs).sum(1)
        policy_loss = (probs * (self.alpha.detach() * log_probs - q)).sum(1).mean()
        return policy_loss, entropies.detach()

    def calc_entropy_loss(self, entropies):
        return -(self.log_alpha * (self.target_entropy - entropies)).mean()

    def soft_update(self):
        with torch.no_grad():
            for t, s in zip(self.target_critic.parameters(), self.online_critic.parameters()):
                t.mul_(1 - self.tau).add_(self.tau * s)

    def learn(self, batch):
        obs, actions, rewards, next_obs, dones = batch
        q_loss = self.calc_critic_loss(obs, actions, rewards, next_obs, dones)
        self.q_optim.zero_grad()
        q_loss.backward()
        self.q_optim.step()

        policy_loss, entropies = self.calc_policy_loss(obs)
        self.policy_optim.zero_grad()
        self.online_critic.zero_grad(set_to_none=True)
        policy_loss.backward()
        info = {
            "policy_grad": [None if p.grad is None else p.grad.clone() for p in self.policy.parameters()],
            "critic_grad_from_policy": [p.grad for p in self.online_critic.parameters()],
        }
        self.policy_optim.step()

        alpha_loss = self.calc_entropy_loss(entropies)
        self.alpha_optim.zero_grad()
        alpha_loss.backward()
        self.alpha_optim.step()
        self.soft_update()
        return info
