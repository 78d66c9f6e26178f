"""Tabular intrusion-detection classifier and its robustness wrapper."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class FlowClassifier(nn.Module):
    def __init__(self, n_features=20, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 32), nn.Tanh(), nn.Linear(32, n_classes))

    def forward(self, x):
        return self.net(x)


class RobustnessProbe:
    def __init__(self, model):
        self.model = model

    def input_gradient(self, x, y):
        x = x.detach().requires_grad_(True)
        loss = F.cross_entropy(self.model(x), y)
        (g,) = torch.autograd.grad(loss, x)
        return g
