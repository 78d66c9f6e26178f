"""
expect: GL001 34
dynamic: confirm
source: kinds check 42, kind 2

A multi-horizon load forecaster maps a window of past demand to the next 12
steps. Forecaster.loss_terms returns (fit, roughness): roughness is meant to
penalise jagged forecasts, but it is computed wholly from horizon.detach(), the
model's own output cut off from the graph, so adding it to the loss adds no
gradient. train(model, ...) is called on two copy.deepcopy(base) copies with
roughness weights 0 and 20: the asserts show the roughness term does not require
grad and both copies end with identical weights, while a subclass computing the
same term without .detach() ends up with visibly smoother forecasts.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class Forecaster(nn.Module):
    def __init__(self, lookback=24, horizon=12):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(lookback, 48), nn.GELU(), nn.Linear(48, horizon))

    def forward(self, window):
        return self.body(window)

    def loss_terms(self, window, target):
        horizon = self(window)
        fit = F.l1_loss(horizon, target)
        # penalise jagged forecasts
        steps = horizon.detach()
        roughness = (steps[:, 2:] - 2 * steps[:, 1:-1] + steps[:, :-2]).pow(2).mean()
        return fit, roughness


class IntendedForecaster(Forecaster):
    def loss_terms(self, window, target):
        horizon = self(window)
        fit = F.l1_loss(horizon, target)
        roughness = (horizon[:, 2:] - 2 * horizon[:, 1:-1] + horizon[:, :-2]).pow(2).mean()
        return fit, roughness


def demand_series(gen, n=400):
    t = torch.arange(n + 36, dtype=torch.float32)
    base = torch.sin(t / 6.0) + 0.5 * torch.sin(t / 17.0)
    noisy = base + 0.4 * torch.randn(t.shape, generator=gen)
    windows = torch.stack([noisy[i:i + 24] for i in range(n)])
    targets = torch.stack([noisy[i + 24:i + 36] for i in range(n)])
    return windows, targets


def train(model, windows, targets, smooth_weight, epochs=80):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(epochs):
        opt.zero_grad()
        fit, roughness = model.loss_terms(windows, targets)
        loss = fit + smooth_weight * roughness
        loss.backward()
        opt.step()
    return model


def roughness_of(model, windows):
    with torch.no_grad():
        h = model(windows)
        return (h[:, 2:] - 2 * h[:, 1:-1] + h[:, :-2]).pow(2).mean().item()


def main():
    torch.manual_seed(7)
    windows, targets = demand_series(torch.Generator().manual_seed(8))
    base = Forecaster()

    plain = train(copy.deepcopy(base), windows, targets, smooth_weight=0.0)
    smooth = train(copy.deepcopy(base), windows, targets, smooth_weight=20.0)

    _, term = smooth.loss_terms(windows, targets)
    assert not term.requires_grad
    for a, b in zip(plain.parameters(), smooth.parameters()):
        assert torch.equal(a, b), "roughness weight changed training"

    intended = IntendedForecaster()
    intended.load_state_dict(base.state_dict())
    intended = train(intended, windows, targets, smooth_weight=20.0)
    r_plain, r_intended = roughness_of(plain, windows), roughness_of(intended, windows)
    assert r_intended < 0.5 * r_plain, (r_plain, r_intended)
    print(f"roughness: weight 0 / weight 20 identical {r_plain:.4f}; intended {r_intended:.4f}")


if __name__ == "__main__":
    main()
