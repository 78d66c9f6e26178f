"""DDPG agent: actor/critic with slowly tracking target networks."""
import copy

import numpy as np
import torch
import torch.nn as nn

criterion = nn.MSELoss()


def to_tensor(ndarray, dtype=torch.float32):
    return torch.as_tensor(ndarray, dtype=dtype)


def soft_update(target, source, tau):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(target_param.data * (1.0 - tau) + param.data * tau)


def hard_update(target, source):
    for target_param, param in zip(target.parameters(), source.parameters()):
        target_param.data.copy_(param.data)


class Actor(nn.Module):
    def __init__(self, nb_states, nb_actions, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(nb_states, hidden), nn.ReLU(), nn.Linear(hidden, nb_actions), nn.Tanh())

    def forward(self, x):
        return self.net(x)


class Critic(nn.Module):
    def __init__(self, nb_states, nb_actions, hidden=32):
        super().__init__()
        self.fc1 = nn.Linear(nb_states, hidden)
        self.fc2 = nn.Linear(hidden + nb_actions, hidden)
        self.fc3 = nn.Linear(hidden, 1)
        self.relu = nn.ReLU()

    def forward(self, xs):
        x, a = xs
        out = self.relu(self.fc1(x))
        out = self.relu(self.fc2(torch.cat([out, a], 1)))
        return self.fc3(out)


class DDPG:
    def __init__(self, nb_states, nb_actions, prate=1e-3, rate=1e-3, discount=0.99, tau=0.01):
        self.actor = Actor(nb_states, nb_actions)
        self.actor_target = copy.deepcopy(self.actor)
        self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=prate)
        self.critic = Critic(nb_states, nb_actions)
        self.critic_target = copy.deepcopy(self.critic)
        self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=rate)
        hard_update(self.actor_target, self.actor)
        hard_update(self.critic_target, self.critic)
        self.discount, self.tau = discount, tau

    def update_policy(self, batch):
        state_batch, action_batch, reward_batch, next_state_batch, terminal_batch = batch

        # prepare for the target q batch
        with torch.no_grad():
            next_q_values = self.critic_target([
                to_tensor(next_state_batch),
                self.actor_target(to_tensor(next_state_batch)),
            ])
        target_q_batch = to_tensor(reward_batch) + \
            self.discount * to_tensor(terminal_batch.astype(np.float32)) * next_q_values

        # critic update
        self.critic.zero_grad()
        q_batch = self.critic([to_tensor(state_batch), to_tensor(action_batch)])
        value_loss = criterion(q_batch, target_q_batch)
        value_loss.backward()
        self.critic_optim.step()

        # actor update
        self.actor.zero_grad()
        policy_loss = -self.critic([to_tensor(state_batch), self.actor(to_tensor(state_batch))])
        policy_loss = policy_loss.mean()
        policy_loss.backward()
        self.actor_optim.step()

        # target update
        soft_update(self.actor_target, self.actor, self.tau)
        soft_update(self.critic_target, self.critic, self.tau)
        return value_loss.item(), policy_loss.item()
