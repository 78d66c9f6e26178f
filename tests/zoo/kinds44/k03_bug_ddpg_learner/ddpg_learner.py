"""DDPG-style learner: deterministic actor, Q critic, one optimizer each."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim, max_action=1.0):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, act_dim))
        self.max_action = max_action

    def forward(self, obs):
        return self.max_action * torch.tanh(self.body(obs))


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.q = nn.Sequential(nn.Linear(obs_dim + act_dim, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, obs, act):
        return self.q(torch.cat([obs, act], dim=-1))


class DDPGLearner:
    def __init__(self, obs_dim, act_dim, gamma=0.99, actor_lr=1e-3, critic_lr=1e-3):
        self.gamma = gamma
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(obs_dim, act_dim)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=actor_lr)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=critic_lr)

    def forward_pass(self, batch):
        self.batch = batch
        self.policy_actions = self.actor(batch["obs"])
        # Q of the actor's own actions: what the actor will try to maximise
        self.q_policy = self.critic(batch["obs"], self.policy_actions)

    def update_critic(self):
        b = self.batch
        with torch.no_grad():
            next_q = self.critic(b["next_obs"], self.actor(b["next_obs"]))
            target = b["reward"] + self.gamma * (1.0 - b["done"]) * next_q
        q = self.critic(b["obs"], b["action"])
        loss = F.mse_loss(q, target)
        self.critic_optim.zero_grad()
        loss.backward()
        self.critic_optim.step()
        return loss.item()

    def update_actor(self):
        loss = -self.q_policy.mean()
        self.actor_optim.zero_grad()
        loss.backward()
        self.actor_optim.step()
        return loss.item()
