"""expect: none
dynamic: dismiss
source: https://github.com/frazane/scoringrules/issues/36

A closed-form CRPS for a Gaussian forecast is used as a training loss. Like the torch backend
discussed in the linked issue, the scoring function normalises its arguments with
torch.as_tensor() so that it accepts NumPy arrays as well as tensors. For an argument that is
already a tensor of the right dtype, torch.as_tensor() returns that same tensor and keeps its
autograd history (the issue switched to torch.as_tensor for exactly this reason; torch.tensor()
would copy), so the network that predicts the mean and spread is trained through the score. Observations arrive as a NumPy
array and have no history to keep.
"""
import math

import numpy as np
import torch
import torch.nn as nn


def crps_normal(observation, mu, sigma):
    observation = torch.as_tensor(observation, dtype=torch.float32)
    mu = torch.as_tensor(mu, dtype=torch.float32)
    sigma = torch.as_tensor(sigma, dtype=torch.float32)
    z = (observation - mu) / sigma
    cdf = 0.5 * (1 + torch.erf(z / math.sqrt(2)))
    pdf = torch.exp(-0.5 * z**2) / math.sqrt(2 * math.pi)
    return sigma * (z * (2 * cdf - 1) + 2 * pdf - 1 / math.sqrt(math.pi))


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))

    def forward(self, x):
        out = self.net(x)
        return out[:, 0], nn.functional.softplus(out[:, 1]) + 1e-3


rng = np.random.default_rng(0)
torch.manual_seed(0)
features = torch.randn(64, 3)
observed = rng.normal(size=64).astype(np.float32)

model = Forecaster()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
first_layer_before = model.net[0].weight.detach().clone()
for _ in range(5):
    mu, sigma = model(features)
    loss = crps_normal(observed, mu, sigma).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()

assert loss.requires_grad
assert model.net[2].weight.grad is not None and model.net[2].weight.grad.abs().sum() > 0
assert not torch.equal(model.net[0].weight.detach(), first_layer_before)
print("the forecaster is trained through the CRPS")
