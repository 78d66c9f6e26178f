import torch
import torch.nn as nn


class TeacherRanker(nn.Module):
    """A large pretrained click-through ranker, frozen for distillation."""

    def __init__(self, n_feat=20):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_feat, 64), nn.ReLU(), nn.Linear(64, 1))
        for p in self.parameters():
            p.requires_grad_(False)
        self.eval()

    def forward(self, x):
        with torch.no_grad():
            return self.net(x).squeeze(-1).detach()
