"""expect: GL001 30
dynamic: confirm

An electricity-load forecaster adds a seasonal model's baseline to a residual model's correction, and one Adam optimizer is built over both models. The seasonal model is evaluated under `torch.no_grad()` inside the training loop, so it receives no gradient and its weights stay at their random initialization.
"""
import itertools
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_batch(n=64, window=24):
    t0 = torch.rand(n, 1) * 100
    hours = t0 + torch.arange(window + 1).float()
    load = 10 + 3 * torch.sin(2 * math.pi * hours / 24) + 0.1 * torch.randn(n, window + 1)
    return load[:, :window], load[:, window]


def main():
    torch.manual_seed(0)
    seasonal = nn.Linear(24, 1)
    residual = nn.Sequential(nn.Linear(24, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = torch.optim.Adam(itertools.chain(seasonal.parameters(), residual.parameters()), lr=1e-2)
    seasonal_before = [p.detach().clone() for p in seasonal.parameters()]

    for step in range(50):
        history, target = make_batch()
        with torch.no_grad():
            baseline = seasonal(history).squeeze(-1)
        pred = baseline + residual(history).squeeze(-1)
        loss = F.mse_loss(pred, target)
        opt.zero_grad()
        loss.backward()
        assert seasonal.weight.grad is None and seasonal.bias.grad is None
        assert all(p.grad is not None for p in residual.parameters())
        opt.step()

    assert all(torch.equal(b, p) for b, p in zip(seasonal_before, seasonal.parameters()))
    print("C2 ok: seasonal model under no_grad in the training loop never trains")


if __name__ == "__main__":
    main()
