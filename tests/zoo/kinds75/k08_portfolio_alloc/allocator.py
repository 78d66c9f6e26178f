import torch
import torch.nn as nn


class SoftmaxAllocator(nn.Module):
    """Maps a market-state vector to long-only portfolio weights."""

    def __init__(self, n_state, n_assets):
        super().__init__()
        self.policy = nn.Sequential(nn.Linear(n_state, 32), nn.Tanh(), nn.Linear(32, n_assets))

    def forward(self, state):
        return torch.softmax(self.policy(state), dim=-1)


def portfolio_paths(weights, asset_returns):
    """weights: (B, A); asset_returns: (B, T, A) -> (B, T) portfolio returns."""
    return torch.einsum("ba,bta->bt", weights, asset_returns)
