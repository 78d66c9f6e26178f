"""
expect: GL002 47
dynamic: confirm
source: https://discuss.pytorch.org/t/actor-critic-with-multivariate-normal-network-weights-fail-to-update/74548

One-step actor-critic with a 2-D Gaussian policy whose mean is squashed into
(0, 2*pi) x (0, pi/2). The squashed actor output goes to numpy so a helper can
turn it into a mean vector and a covariance matrix, and the policy distribution
is built from fresh FloatTensors made from those arrays. The log-probability
therefore depends on nothing the actor produced: after the joint backward the
critic has gradients but every actor parameter's .grad stays None, and the
actor weights never move. Building the distribution from the actor's tensors
gives the actor a gradient.
"""
import math

import numpy as np
import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal

torch.manual_seed(0)
torch.set_num_threads(1)
np.random.seed(0)


def mlp(n_in, n_out):
    return nn.Sequential(nn.Linear(n_in, 32), nn.ReLU(), nn.Linear(32, n_out))


def get_params_from_policy_thetas(thetas):
    scale = np.array([2 * math.pi, math.pi / 2], dtype=np.float32)
    mu = thetas[0] * scale
    S = np.diag([0.05, 0.02]).astype(np.float32)
    return mu, S


class Agent:
    def __init__(self, obs_dim, gamma=0.95):
        self.actor, self.critic = mlp(obs_dim, 2), mlp(obs_dim, 1)
        self.opt = torch.optim.Adam(list(self.actor.parameters()) + list(self.critic.parameters()), lr=1e-3)
        self.gamma = gamma

    def choose_action(self, observation):
        policy_thetas = torch.sigmoid(self.actor(observation))
        mu, S = get_params_from_policy_thetas(policy_thetas.detach().numpy())
        action_probs = MultivariateNormal(torch.FloatTensor(mu), torch.FloatTensor(S))
        action = action_probs.sample()
        self.log_probs = action_probs.log_prob(action)
        return action

    def learn(self, state, reward, new_state, done):
        self.opt.zero_grad()
        critic_value = self.critic(state)
        critic_value_ = self.critic(new_state)
        delta = reward + self.gamma * critic_value_ * (1 - int(done)) - critic_value
        actor_loss = -self.log_probs * delta
        critic_loss = delta.pow(2)
        (actor_loss + critic_loss).sum().backward()
        self.opt.step()


def choose_action_fixed(agent, observation):
    policy_thetas = torch.sigmoid(agent.actor(observation))
    scale = torch.tensor([2 * math.pi, math.pi / 2])
    dist = MultivariateNormal(policy_thetas[0] * scale, torch.diag(torch.tensor([0.05, 0.02])))
    action = dist.sample()
    agent.log_probs = dist.log_prob(action)
    return action


def toy_reward(action):
    target = torch.tensor([math.pi, 0.5])
    return -((action - target) ** 2).sum()


obs, new_obs = torch.randn(1, 4), torch.randn(1, 4)

agent = Agent(4)
before = [p.detach().clone() for p in agent.actor.parameters()]
for _ in range(5):
    a = agent.choose_action(obs)
    agent.learn(obs, toy_reward(a), new_obs, False)
assert all(p.grad is None for p in agent.actor.parameters())
assert all(p.grad is not None for p in agent.critic.parameters())
assert all(torch.equal(b, p) for b, p in zip(before, agent.actor.parameters()))

fixed = Agent(4)
before = [p.detach().clone() for p in fixed.actor.parameters()]
for _ in range(5):
    a = choose_action_fixed(fixed, obs)
    fixed.learn(obs, toy_reward(a), new_obs, False)
assert all(p.grad is not None for p in fixed.actor.parameters())
assert any(not torch.equal(b, p) for b, p in zip(before, fixed.actor.parameters()))
print("numpy round trip: actor grads None, critic trained; tensor-built policy: actor trained")
