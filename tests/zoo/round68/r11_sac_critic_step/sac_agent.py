import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class TwinnedQNetwork(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.Q1 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(),
                                nn.Linear(hidden, 1))
        self.Q2 = nn.Sequential(nn.Linear(obs_dim + act_dim, hidden), nn.ReLU(),
                                nn.Linear(hidden, 1))

    def forward(self, states, actions):
        x = torch.cat([states, actions], dim=1)
        return self.Q1(x), self.Q2(x)


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim, act_dim, hidden=32):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, act_dim)
        self.log_std = nn.Linear(hidden, act_dim)

    def sample(self, states):
        h = self.body(states)
        mean, log_std = self.mean(h), self.log_std(h).clamp(-5, 2)
        dist = Normal(mean, log_std.exp())
        u = dist.rsample()
        action = torch.tanh(u)
        log_prob = dist.log_prob(u) - torch.log(1 - action.pow(2) + 1e-6)
        entropy = -log_prob.sum(dim=1, keepdim=True)
        return action, entropy


class SacAgent:
    def __init__(self, obs_dim, act_dim, gamma=0.99, alpha=0.2, lr=3e-3,
                 policy_after_critic=False):
        self.policy = GaussianPolicy(obs_dim, act_dim)
        self.critic = TwinnedQNetwork(obs_dim, act_dim)
        self.critic_target = TwinnedQNetwork(obs_dim, act_dim)
        self.critic_target.load_state_dict(self.critic.state_dict())
        for p in self.critic_target.parameters():
            p.requires_grad_(False)
        self.policy_optim = torch.optim.Adam(self.policy.parameters(), lr=lr)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=lr)
        self.gamma, self.alpha = gamma, alpha
        self.policy_after_critic = policy_after_critic

    def calc_critic_loss(self, batch):
        states, actions, rewards, next_states, dones = batch
        curr_q1, curr_q2 = self.critic(states, actions)
        with torch.no_grad():
            next_actions, next_entropies = self.policy.sample(next_states)
            next_q1, next_q2 = self.critic_target(next_states, next_actions)
            next_q = torch.min(next_q1, next_q2) + self.alpha * next_entropies
            target_q = rewards + (1.0 - dones) * self.gamma * next_q
        q1_loss = F.mse_loss(curr_q1, target_q)
        q2_loss = F.mse_loss(curr_q2, target_q)
        return q1_loss, q2_loss

    def calc_policy_loss(self, batch):
        states = batch[0]
        sampled_actions, entropies = self.policy.sample(states)
        q1, q2 = self.critic(states, sampled_actions)
        q = torch.min(q1, q2)
        policy_loss = torch.mean(-q - self.alpha * entropies)
        return policy_loss, entropies

    def learn(self, batch):
        q1_loss, q2_loss = self.calc_critic_loss(batch)
        if not self.policy_after_critic:
            # both losses are built from the same critic forward state
            policy_loss, _ = self.calc_policy_loss(batch)

        self.critic_optim.zero_grad()
        (q1_loss + q2_loss).backward()
        self.critic_optim.step()

        if self.policy_after_critic:
            policy_loss, _ = self.calc_policy_loss(batch)
        self.policy_optim.zero_grad()
        policy_loss.backward()
        self.policy_optim.step()
        return q1_loss.item(), q2_loss.item(), policy_loss.item()
