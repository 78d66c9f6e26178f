"""expect: none
dynamic: dismiss
source: https://github.com/Farama-Foundation/Gymnasium/issues/1336

A REINFORCE agent for a continuous action space (as in the Gymnasium MuJoCo tutorial discussed
in the linked issue) keeps the log-probability of every sampled action and the scalar reward of
every step. In update() the discounted returns, which are plain Python floats, are turned into a
tensor with torch.tensor(), while the log-probabilities are combined with torch.stack(), which
keeps their autograd history. The loss is the sum of log-prob times return (the per-step form
the issue asks for), so the policy network receives the policy gradient.
"""
import torch
import torch.nn as nn
from torch.distributions import Normal


class GaussianPolicy(nn.Module):
    def __init__(self, obs_dim=3, act_dim=2):
        super().__init__()
        self.shared = nn.Sequential(nn.Linear(obs_dim, 16), nn.Tanh())
        self.mean = nn.Linear(16, act_dim)
        self.log_std = nn.Linear(16, act_dim)

    def forward(self, obs):
        h = self.shared(obs)
        return self.mean(h), self.log_std(h).clamp(-3, 1).exp()


class Reinforce:
    def __init__(self, gamma=0.99):
        self.net = GaussianPolicy()
        self.optimizer = torch.optim.AdamW(self.net.parameters(), lr=1e-3)
        self.gamma = gamma
        self.probs = []
        self.rewards = []

    def sample_action(self, obs):
        mean, std = self.net(obs)
        dist = Normal(mean, std)
        action = dist.sample()
        self.probs.append(dist.log_prob(action).sum())
        return action

    def update(self):
        running, gs = 0.0, []
        for r in self.rewards[::-1]:
            running = r + self.gamma * running
            gs.insert(0, running)
        deltas = torch.tensor(gs)
        log_probs = torch.stack(self.probs)
        loss = -torch.sum(log_probs * deltas)
        self.optimizer.zero_grad()
        loss.backward()
        grad = self.net.mean.weight.grad.clone()
        self.optimizer.step()
        self.probs, self.rewards = [], []
        return grad


torch.manual_seed(0)
agent = Reinforce()
for _ in range(12):
    act = agent.sample_action(torch.randn(3))
    agent.rewards.append(-float(act.pow(2).sum()))
g = agent.update()
assert g.abs().sum() > 0
print("policy receives the REINFORCE gradient")
