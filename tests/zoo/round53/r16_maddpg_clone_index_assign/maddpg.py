"""MADDPG learner: per-agent actors, centralised critics, target networks and a replay memory."""
import random
from collections import namedtuple
from copy import deepcopy

import torch
import torch.nn as nn
import torch.nn.functional as F

Experience = namedtuple("Experience", ("states", "actions", "next_states", "rewards"))


class Actor(nn.Module):
    def __init__(self, dim_obs, dim_act):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(dim_obs, 32), nn.Linear(32, dim_act)

    def forward(self, obs):
        return torch.tanh(self.fc2(F.relu(self.fc1(obs))))


class Critic(nn.Module):
    def __init__(self, n_agents, dim_obs, dim_act):
        super().__init__()
        self.fc1 = nn.Linear(n_agents * dim_obs, 32)
        self.fc2 = nn.Linear(32 + n_agents * dim_act, 32)
        self.fc3 = nn.Linear(32, 1)

    def forward(self, obs, acts):
        h = F.relu(self.fc1(obs))
        return self.fc3(F.relu(self.fc2(torch.cat([h, acts], 1))))


def soft_update(target, source, tau):
    for t_param, s_param in zip(target.parameters(), source.parameters()):
        t_param.data.copy_((1 - tau) * t_param.data + tau * s_param.data)


class MADDPG:
    def __init__(self, n_agents, dim_obs, dim_act, batch_size=16, gamma=0.95, tau=0.1):
        self.actors = [Actor(dim_obs, dim_act) for _ in range(n_agents)]
        self.critics = [Critic(n_agents, dim_obs, dim_act) for _ in range(n_agents)]
        self.actors_target = deepcopy(self.actors)
        self.critics_target = deepcopy(self.critics)
        self.n_agents, self.dim_obs, self.dim_act = n_agents, dim_obs, dim_act
        self.batch_size, self.gamma, self.tau = batch_size, gamma, tau
        self.memory = []
        self.critic_optimizer = [torch.optim.Adam(c.parameters(), lr=1e-3) for c in self.critics]
        self.actor_optimizer = [torch.optim.Adam(a.parameters(), lr=1e-3) for a in self.actors]

    def select_action(self, state_batch):
        actions = torch.zeros(self.n_agents, self.dim_act)
        for i in range(self.n_agents):
            act = self.actors[i](state_batch[i].unsqueeze(0)).squeeze(0)
            act = act + 0.1 * torch.randn(self.dim_act)
            actions[i, :] = torch.clamp(act, -1.0, 1.0)
        return actions

    def update_policy(self):
        c_loss, a_loss = [], []
        for agent in range(self.n_agents):
            batch = Experience(*zip(*random.sample(self.memory, self.batch_size)))
            non_final_mask = torch.tensor([s is not None for s in batch.next_states])
            state_batch = torch.stack(batch.states)
            action_batch = torch.stack(batch.actions)
            reward_batch = torch.stack(batch.rewards)
            non_final_next_states = torch.stack([s for s in batch.next_states if s is not None])

            whole_state = state_batch.view(self.batch_size, -1)
            whole_action = action_batch.view(self.batch_size, -1)
            self.critic_optimizer[agent].zero_grad()
            current_Q = self.critics[agent](whole_state, whole_action)

            next_actions = torch.stack([self.actors_target[i](non_final_next_states[:, i, :])
                                        for i in range(self.n_agents)]).transpose(0, 1).contiguous()
            target_Q = torch.zeros(self.batch_size)
            target_Q[non_final_mask] = self.critics_target[agent](
                non_final_next_states.view(-1, self.n_agents * self.dim_obs),
                next_actions.view(-1, self.n_agents * self.dim_act)).squeeze(1)
            target_Q = target_Q.unsqueeze(1) * self.gamma + reward_batch[:, agent].unsqueeze(1)
            loss_Q = F.mse_loss(current_Q, target_Q.detach())
            loss_Q.backward()
            self.critic_optimizer[agent].step()

            self.actor_optimizer[agent].zero_grad()
            action_i = self.actors[agent](state_batch[:, agent, :])
            ac = action_batch.clone()
            ac[:, agent, :] = action_i
            whole_action = ac.view(self.batch_size, -1)
            actor_loss = -self.critics[agent](whole_state, whole_action).mean()
            actor_loss.backward()
            self.actor_optimizer[agent].step()
            c_loss.append(loss_Q.item())
            a_loss.append(actor_loss.item())

        for i in range(self.n_agents):
            soft_update(self.critics_target[i], self.critics[i], self.tau)
            soft_update(self.actors_target[i], self.actors[i], self.tau)
        return c_loss, a_loss
