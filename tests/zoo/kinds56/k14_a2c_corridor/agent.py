import torch
import torch.nn as nn
from torch.distributions import Categorical


class ActorCritic(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden=64):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def act(self, obs):
        with torch.no_grad():
            dist = Categorical(logits=self.actor(obs))
            return dist.sample().item()

    def evaluate(self, states, actions):
        dist = Categorical(logits=self.actor(states))
        values = torch.tensor(self.critic(states).squeeze(-1).detach(), dtype=torch.float32, requires_grad=True)
        return dist.log_prob(actions), dist.entropy(), values
