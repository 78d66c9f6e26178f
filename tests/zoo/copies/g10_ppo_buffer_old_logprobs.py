"""expect: none
dynamic: dismiss
source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/issues/284

A PPO agent is a plain class with a rollout buffer. Actions are chosen under torch.no_grad(),
and the log-probability of each chosen action is stored in a list; update() later rebuilds
those stored values with torch.tensor() as the "old" log-probabilities. These must be constants
in the PPO ratio, which is the point discussed in the linked issue: the gradient comes from the
log-probabilities recomputed by the current policy in update(), and the value loss trains the
critic. The copy drops no history because the stored values never had any.
"""
import torch
import torch.nn as nn
from torch.distributions import Categorical


class PPOAgent:
    def __init__(self, n_obs=4, n_act=3, clip=0.2):
        self.actor = nn.Sequential(nn.Linear(n_obs, 32), nn.Tanh(), nn.Linear(32, n_act))
        self.critic = nn.Sequential(nn.Linear(n_obs, 32), nn.Tanh(), nn.Linear(32, 1))
        params = list(self.actor.parameters()) + list(self.critic.parameters())
        self.opt = torch.optim.Adam(params, lr=3e-3)
        self.clip = clip
        self.states, self.actions, self.log_probs, self.rewards = [], [], [], []

    def act(self, state):
        with torch.no_grad():
            dist = Categorical(logits=self.actor(state))
            action = dist.sample()
            self.states.append(state)
            self.actions.append(action)
            self.log_probs.append(dist.log_prob(action))
        return action.item()

    def update(self, epochs=3):
        states = torch.stack(self.states)
        actions = torch.stack(self.actions)
        old_log_probs = torch.tensor(self.log_probs)
        returns = torch.tensor(self.rewards).flip(0).cumsum(0).flip(0)
        for _ in range(epochs):
            dist = Categorical(logits=self.actor(states))
            new_log_probs = dist.log_prob(actions)
            values = self.critic(states).squeeze(-1)
            advantages = (returns - values).detach()
            ratio = torch.exp(new_log_probs - old_log_probs)
            clipped = torch.clamp(ratio, 1 - self.clip, 1 + self.clip)
            policy_loss = -torch.min(ratio * advantages, clipped * advantages).mean()
            value_loss = (returns - values).pow(2).mean()
            self.opt.zero_grad()
            (policy_loss + 0.5 * value_loss).backward()
            grads = (self.actor[2].weight.grad.clone(), self.critic[2].weight.grad.clone())
            self.opt.step()
        self.states, self.actions, self.log_probs, self.rewards = [], [], [], []
        return grads


torch.manual_seed(0)
agent = PPOAgent()
for _ in range(16):
    a = agent.act(torch.randn(4))
    agent.rewards.append(float(a == 2))
actor_grad, critic_grad = agent.update()

assert actor_grad.abs().sum() > 0
assert critic_grad.abs().sum() > 0
print("actor and critic are trained; the old log-probs are constants by design")
