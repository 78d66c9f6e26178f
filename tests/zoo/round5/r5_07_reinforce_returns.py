"""source: https://github.com/wasuratme96/Deep-Reinforcement-Learning

REINFORCE on a toy environment: the policy samples actions (converted with .item() to step
the environment), discounted returns are computed in NumPy and turned into a tensor with
torch.tensor(), and the log-probabilities are kept as tensors and joined with torch.stack().
The returns are constants of the loss, so this copy is correct and the policy still trains.
"""
import numpy as np
import torch
import torch.nn as nn
from torch.distributions import Categorical

GAMMA = 0.99


class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs_dim, 32), nn.ReLU(), nn.Linear(32, n_actions))
        self.log_probs, self.rewards = [], []

    def act(self, state):
        dist = Categorical(logits=self.net(torch.from_numpy(state.astype(np.float32))))
        action = dist.sample()
        self.log_probs.append(dist.log_prob(action))
        return action.item()


def toy_env_step(state, action, rng):
    reward = 1.0 if (state.sum() > 0) == (action == 1) else 0.0
    return rng.standard_normal(4), reward


torch.manual_seed(0)
rng = np.random.default_rng(0)
policy = Policy(4, 2)
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
w_before = policy.net[0].weight.detach().clone()

for episode in range(5):
    state = rng.standard_normal(4)
    for t in range(20):
        action = policy.act(state)
        state, reward = toy_env_step(state, action, rng)
        policy.rewards.append(reward)

    rets = np.empty(len(policy.rewards), dtype=np.float32)
    running = 0.0
    for t in reversed(range(len(policy.rewards))):
        running = policy.rewards[t] + GAMMA * running
        rets[t] = running
    rets = torch.tensor(rets)
    loss = -(torch.stack(policy.log_probs) * rets).sum()

    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None for p in policy.parameters())
    opt.step()
    policy.log_probs, policy.rewards = [], []

assert not torch.equal(policy.net[0].weight, w_before)
print("ok: policy trains")
