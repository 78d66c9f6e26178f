"""Frozen-by-default image encoder for a tiny LLaVA-style model; its forward runs under no_grad."""
import torch
import torch.nn as nn


class PatchVisionTower(nn.Module):
    def __init__(self, patch_dim=12, hidden=16):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(patch_dim, hidden), nn.GELU(), nn.Linear(hidden, hidden)
        )
        # the pretrained tower is loaded frozen; the trainer may unfreeze it later
        self.encoder.requires_grad_(False)
        self.hidden_size = hidden

    def unfreeze(self):
        self.encoder.requires_grad_(True)

    @staticmethod
    def drop_cls(hidden_states):
        return hidden_states[:, 1:]

    @torch.no_grad()
    def forward(self, patches):
        return self.drop_cls(self.encoder(patches))
