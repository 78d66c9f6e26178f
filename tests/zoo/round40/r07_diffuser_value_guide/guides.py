"""Value guide for guided trajectory sampling: returns the value and its gradient with respect to the noisy plan."""
import torch
import torch.nn as nn


class ValueFunction(nn.Module):
    def __init__(self, horizon, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(horizon * dim + 1, 64), nn.Mish(), nn.Linear(64, 1))

    def forward(self, x, t):
        return self.net(torch.cat([x.flatten(1), t.float().unsqueeze(1) / 100.0], dim=1))


class ValueGuide(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x, t):
        return self.model(x, t).squeeze(dim=-1)

    def gradients(self, x, t):
        x.requires_grad_()
        y = self(x, t)
        grad = torch.autograd.grad([y.sum()], [x])[0]
        return y, grad
