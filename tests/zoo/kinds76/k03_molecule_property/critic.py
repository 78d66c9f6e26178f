"""Pretrained solubility predictor used as a frozen critic for generated molecules.

Works on a continuous fingerprint (a 32-d relaxed bit vector).
"""
import torch
import torch.nn as nn


class SolubilityCritic(nn.Module):
    def __init__(self, fp_dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(fp_dim, 32), nn.Tanh(), nn.Linear(32, 1))

    def forward(self, fingerprint):
        return self.net(fingerprint).squeeze(-1)

    @torch.no_grad()
    def predict(self, fingerprint):
        """Predicted log-solubility, for screening and reporting."""
        self.eval()
        return self.forward(fingerprint)

    def freeze(self):
        for p in self.parameters():
            p.requires_grad_(False)
        return self
