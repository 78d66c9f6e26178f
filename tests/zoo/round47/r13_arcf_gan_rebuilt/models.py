"""Conditional rating/missing-entry generators and discriminators for an adversarial recommender."""
import torch
import torch.nn as nn


class UserEncoder(nn.Module):
    def __init__(self, num_users, dim):
        super().__init__()
        self.embedding = nn.Embedding(num_users, dim)

    def forward(self, user_ids):
        return self.embedding(user_ids)


class Generator(nn.Module):
    def __init__(self, noise_size, cond_size, item_count, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(noise_size + cond_size, hidden), nn.ReLU(),
            nn.Linear(hidden, item_count), nn.Sigmoid(),
        )

    def forward(self, noise, cond):
        return self.net(torch.cat([noise, cond], dim=-1))


class Discriminator(nn.Module):
    def __init__(self, item_count, cond_size, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(item_count + cond_size, hidden), nn.LeakyReLU(0.2),
            nn.Linear(hidden, 1), nn.Sigmoid(),
        )

    def forward(self, vector, cond):
        return self.net(torch.cat([vector, cond], dim=-1))
