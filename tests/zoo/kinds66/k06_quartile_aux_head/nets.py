import torch.nn as nn


class SmallRegressor(nn.Module):
    """Regressor with a side head that predicts a coarse bucket of the target."""

    def __init__(self, in_dim=12, hidden=32, n_buckets=4):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU())
        self.value_head = nn.Linear(hidden, 1)
        self.bucket_head = nn.Linear(hidden, n_buckets)

    def forward(self, x):
        h = self.trunk(x)
        return self.value_head(h).squeeze(-1), self.bucket_head(h)
