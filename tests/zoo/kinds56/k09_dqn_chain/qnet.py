import torch
import torch.nn as nn


class QNetwork(nn.Module):
    def __init__(self, n_states, n_actions, hidden=64):
        super().__init__()
        self.n_states = n_states
        self.mlp = nn.Sequential(
            nn.Linear(n_states, hidden), nn.ReLU(), nn.Linear(hidden, n_actions)
        )

    def forward(self, state_idx):
        onehot = torch.nn.functional.one_hot(state_idx, self.n_states).float()
        return self.mlp(onehot)

    @torch.no_grad()
    def bootstrap(self, reward, next_state, done, gamma):
        """One-step TD target r + gamma * max_a Q(s', a), with this network's weights."""
        next_q = self(next_state).max(-1).values
        return reward + gamma * (1.0 - done) * next_q
