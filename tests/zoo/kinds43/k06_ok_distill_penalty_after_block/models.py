"""Student and teacher regressors for the load-forecast distillation run."""
import torch.nn as nn


class Regressor(nn.Module):
    def __init__(self, n_in, width):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(n_in, width), nn.SiLU(), nn.Linear(width, 1))

    def forward(self, x):
        return self.body(x).squeeze(-1)


def frozen_teacher(n_in, width=64):
    teacher = Regressor(n_in, width)
    for p in teacher.parameters():
        p.requires_grad_(False)
    return teacher.eval()
