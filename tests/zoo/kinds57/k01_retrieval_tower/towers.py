import torch
import torch.nn as nn
import torch.nn.functional as F


class TwoTowerRecommender(nn.Module):
    """User/item two-tower model for candidate retrieval."""

    def __init__(self, n_users, n_items, dim=32):
        super().__init__()
        self.user_emb = nn.Embedding(n_users, dim)
        self.item_emb = nn.Embedding(n_items, dim)
        self.user_tower = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, dim))
        self.item_tower = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, dim))

    def user_vectors(self, user_ids):
        return F.normalize(self.user_tower(self.user_emb(user_ids)), dim=-1)

    def item_vectors(self, item_ids):
        return F.normalize(self.item_tower(self.item_emb(item_ids)), dim=-1)

    def forward(self, user_ids, item_ids):
        return self.user_vectors(user_ids) @ self.item_vectors(item_ids).T

    @torch.no_grad()
    def encode_for_index(self, item_ids, batch_size=512):
        """Item vectors for the ANN index (served offline, so no autograd)."""
        chunks = []
        for start in range(0, item_ids.numel(), batch_size):
            chunks.append(self.item_vectors(item_ids[start:start + batch_size]))
        return torch.cat(chunks)
