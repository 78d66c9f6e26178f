"""Actor-critic agent for a continuous reaching task with bounded actions."""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class PolicyNet(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.mu = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, act_dim))

    def forward(self, obs):
        return self.mu(obs)


class ValueNet(nn.Module):
    def __init__(self, obs_dim):
        super().__init__()
        self.v = nn.Sequential(nn.Linear(obs_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, obs):
        return self.v(obs).squeeze(-1)


class ReachingAgent:
    def __init__(self, obs_dim, act_dim, action_bound=2.0, sigma=0.3, lr=3e-3):
        self.policy = PolicyNet(obs_dim, act_dim)
        self.value = ValueNet(obs_dim)
        self.action_bound = action_bound
        self.sigma = sigma
        self.optimizer = torch.optim.Adam(
            list(self.policy.parameters()) + list(self.value.parameters()), lr=lr
        )

    def act(self, obs):
        obs_t = torch.as_tensor(obs, dtype=torch.float32)
        mu = self.policy(obs_t)
        mu_np = mu.detach().numpy()
        mu_np = np.clip(mu_np, -1.0, 1.0) * self.action_bound
        mean = torch.from_numpy(mu_np)
        dist = Normal(mean, self.sigma)
        action = dist.sample()
        self.log_prob = dist.log_prob(action).sum(-1)
        self.state_value = self.value(obs_t)
        return action.numpy()

    def learn(self, reward):
        reward = torch.as_tensor(reward, dtype=torch.float32)
        advantage = reward - self.state_value.detach()
        actor_loss = -(self.log_prob * advantage).mean()
        critic_loss = F.mse_loss(self.state_value, reward)
        loss = actor_loss + 0.5 * critic_loss
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()
