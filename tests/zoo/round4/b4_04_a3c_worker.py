"""expect: GL002 73
dynamic: confirm
source: https://github.com/Quantum-Cheese/DeepReinforcementLearning_Pytorch/issues/1

One A3C-style worker with a Gaussian actor and a separate critic, acting in a
tiny 1-D reach task. During the rollout the worker stores
(state, log_prob, reward) tuples; at update time it rebuilds the log-probs with
`torch.tensor([...])` from that list. torch.tensor copies the values and drops
the autograd history, so the policy-gradient term -A * log_prob is a constant
with respect to the actor. The actor's mean head gets no gradient at all (only
the entropy bonus reaches the log-std), while the critic trains normally, so the
policy never improves.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class ReachTarget:
    def __init__(self, horizon=8):
        self.horizon = horizon

    def reset(self):
        self.t, self.pos = 0, 0.0
        return [self.pos, 1.0]

    def step(self, action):
        self.t += 1
        self.pos += float(action)
        reward = -abs(1.0 - self.pos)
        return [self.pos, 1.0], reward, self.t >= self.horizon


class GaussianActor(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh())
        self.mu_head = nn.Linear(16, act_dim)
        self.log_std = nn.Parameter(torch.zeros(act_dim))

    def forward(self, obs):
        return self.mu_head(self.body(obs)), self.log_std.exp().expand(obs.shape[0], -1)

    def act(self, obs):
        mu, std = self(obs)
        dist = Normal(mu, std)
        a = dist.sample()
        return a, dist.log_prob(a).sum()


class Worker:
    def __init__(self, env, gamma=0.95):
        self.env, self.gamma = env, gamma
        self.actor = GaussianActor(2, 1)
        self.critic = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 1))
        self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
        self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        self.memory = []

    def rollout(self):
        obs, done = self.env.reset(), False
        while not done:
            a, logp = self.actor.act(torch.tensor([obs], dtype=torch.float))
            nxt, r, done = self.env.step(a.item())
            self.memory.append((obs, logp, r))
            obs = nxt

    def losses(self):
        states = torch.tensor([m[0] for m in self.memory], dtype=torch.float)
        log_probs = torch.tensor([m[1] for m in self.memory], dtype=torch.float)
        rewards = [m[2] for m in self.memory]
        returns, running = [], 0.0
        for r in reversed(rewards):
            running = r + self.gamma * running
            returns.insert(0, running)
        returns = torch.tensor(returns, dtype=torch.float).view(-1, 1)

        values = self.critic(states)
        value_loss = F.mse_loss(values, returns)
        _, std = self.actor(states)
        entropy = 0.5 + 0.5 * math.log(2 * math.pi) + torch.log(std)
        advantage = (returns - values).detach()
        policy_loss = (-advantage.squeeze(1) * log_probs - 0.005 * entropy.squeeze(1)).mean()
        return value_loss, policy_loss

    def update(self):
        value_loss, policy_loss = self.losses()
        self.critic_opt.zero_grad()
        value_loss.backward()
        self.critic_opt.step()
        self.actor_opt.zero_grad()
        policy_loss.backward()
        self.actor_opt.step()
        self.memory = []


def main():
    torch.manual_seed(0)
    worker = Worker(ReachTarget())
    mu_before = worker.actor.mu_head.weight.detach().clone()
    for _ in range(4):
        worker.rollout()
        worker.update()
    assert worker.actor.mu_head.weight.grad is None
    assert torch.equal(worker.actor.mu_head.weight.detach(), mu_before)
    assert worker.actor.log_std.grad is not None
    assert worker.critic[0].weight.grad is not None
    print("actor mean head never received a policy gradient")


if __name__ == "__main__":
    main()
