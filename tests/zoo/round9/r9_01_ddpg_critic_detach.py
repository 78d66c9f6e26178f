"""
expect: GL001 59
dynamic: confirm
source: https://github.com/Jacklinkk/Graph_CAVs/issues/9

A DDPG agent (traffic-control style, continuous actions) computes its TD terms in a
helper method and trains the critic in learn(). The helper detaches the *online*
critic's Q estimate instead of the bootstrapped target, so the critic loss only has
history through the target networks: the critic's optimizer never sees a gradient and
the critic stays at its initialisation while the actor keeps training. The program
asserts the critic never moves (and has no grad after its own backward) while the actor
does, and that without that detach the critic does train.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Actor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(),
                                 nn.Linear(32, act_dim), nn.Tanh())

    def forward(self, obs):
        return self.net(obs)


class Critic(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim + act_dim, 32), nn.ReLU(),
                                 nn.Linear(32, 1))

    def forward(self, obs, act):
        return self.net(torch.cat([obs, act], dim=-1))


class DDPGAgent:
    def __init__(self, obs_dim, act_dim, gamma=0.99, detach_q=True):
        self.actor = Actor(obs_dim, act_dim)
        self.critic = Critic(obs_dim, act_dim)
        self.actor_target = copy.deepcopy(self.actor)
        self.critic_target = copy.deepcopy(self.critic)
        self.actor_optimizer = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_optimizer = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.gamma = gamma
        self.detach_q = detach_q

    def td_terms(self, state, action, reward, next_state, done):
        next_action = self.actor_target(next_state)
        critic_value_next = self.critic_target(next_state, next_action)
        critic_value = self.critic(state, action)
        if self.detach_q:
            critic_value = critic_value.detach()
        critic_target = reward + self.gamma * critic_value_next * (1 - done)
        return critic_value, critic_target

    def learn(self, batch):
        state, action, reward, next_state, done = batch
        critic_value, critic_target = self.td_terms(state, action, reward, next_state, done)
        critic_loss = F.smooth_l1_loss(critic_value, critic_target)
        self.critic_optimizer.zero_grad()
        critic_loss.backward()
        critic_grad_seen = any(p.grad is not None for p in self.critic.parameters())
        self.critic_optimizer.step()

        actor_loss = -self.critic(state, self.actor(state)).mean()
        self.actor_optimizer.zero_grad()
        actor_loss.backward()
        self.actor_optimizer.step()
        return critic_grad_seen


def sample_batch(n=32, obs_dim=6, act_dim=2):
    state = torch.randn(n, obs_dim)
    action = torch.rand(n, act_dim) * 2 - 1
    reward = -(state[:, :1] ** 2) + 0.1 * action[:, :1]
    next_state = state + 0.1 * torch.randn(n, obs_dim)
    done = (torch.rand(n, 1) < 0.05).float()
    return state, action, reward, next_state, done


def run(detach_q):
    torch.manual_seed(1)
    agent = DDPGAgent(6, 2, detach_q=detach_q)
    critic_before = [p.detach().clone() for p in agent.critic.parameters()]
    actor_before = [p.detach().clone() for p in agent.actor.parameters()]
    seen = [agent.learn(sample_batch()) for _ in range(8)]
    critic_moved = any(not torch.equal(a, p) for a, p in zip(critic_before, agent.critic.parameters()))
    actor_moved = any(not torch.equal(a, p) for a, p in zip(actor_before, agent.actor.parameters()))
    return seen, critic_moved, actor_moved


seen, critic_moved, actor_moved = run(detach_q=True)
assert not any(seen), "critic received a gradient from its own loss"
assert not critic_moved, "critic parameters changed"
assert actor_moved, "actor should still train"

seen_ok, critic_moved_ok, actor_moved_ok = run(detach_q=False)
assert all(seen_ok) and critic_moved_ok and actor_moved_ok

print("OK")
