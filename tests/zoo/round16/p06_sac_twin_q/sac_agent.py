"""Soft actor-critic style update with twin Q networks."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class QNet(nn.Module):
    def __init__(self, obs_dim, act_dim, hid=32):
        super().__init__()
        self.l1 = nn.Linear(obs_dim + act_dim, hid)
        self.l2 = nn.Linear(hid, 1)

    def forward(self, obs, act):
        return self.l2(F.relu(self.l1(torch.cat([obs, act], dim=-1))))


class Policy(nn.Module):
    def __init__(self, obs_dim, act_dim, hid=32):
        super().__init__()
        self.l1 = nn.Linear(obs_dim, hid)
        self.mu = nn.Linear(hid, act_dim)

    def forward(self, obs):
        return torch.tanh(self.mu(F.relu(self.l1(obs))))


class SACTrainer:
    def __init__(self, policy, qf1, qf2, lr=1e-3, alpha=0.2):
        self.policy, self.qf1, self.qf2 = policy, qf1, qf2
        self.alpha = alpha
        self.policy_optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
        self.qf1_optimizer = torch.optim.Adam(qf1.parameters(), lr=lr)
        self.qf2_optimizer = torch.optim.Adam(qf2.parameters(), lr=lr)

    def train_step(self, obs, actions, q_target):
        new_actions = self.policy(obs)
        log_pi = -(new_actions ** 2).sum(-1, keepdim=True)
        q_new = torch.min(self.qf1(obs, new_actions), self.qf2(obs, new_actions))
        policy_loss = (self.alpha * log_pi - q_new).mean()

        qf1_loss = F.mse_loss(self.qf1(obs, actions), q_target)
        qf2_loss = F.mse_loss(self.qf2(obs, actions), q_target)

        self.qf1_optimizer.zero_grad()
        qf1_loss.backward(retain_graph=True)
        self.qf1_optimizer.step()
        self.qf2_optimizer.zero_grad()
        qf2_loss.backward(retain_graph=True)
        self.qf2_optimizer.step()

        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()
        return policy_loss.item(), qf1_loss.item()

    def train_step_v2(self, obs, actions, q_target):
        qf1_loss = F.mse_loss(self.qf1(obs, actions), q_target)
        qf2_loss = F.mse_loss(self.qf2(obs, actions), q_target)
        self.qf1_optimizer.zero_grad()
        qf1_loss.backward()
        self.qf1_optimizer.step()
        self.qf2_optimizer.zero_grad()
        qf2_loss.backward()
        self.qf2_optimizer.step()

        new_actions = self.policy(obs)
        log_pi = -(new_actions ** 2).sum(-1, keepdim=True)
        q_new = torch.min(self.qf1(obs, new_actions), self.qf2(obs, new_actions))
        policy_loss = (self.alpha * log_pi - q_new).mean()
        self.policy_optimizer.zero_grad()
        policy_loss.backward()
        self.policy_optimizer.step()
        return policy_loss.item(), qf1_loss.item()
