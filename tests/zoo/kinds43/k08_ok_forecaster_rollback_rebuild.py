"""
expect: none
dynamic: dismiss
source: kinds check 43, kind 4

A one-step-ahead forecaster for a noisy seasonal series, trained with patience-based rollback: whenever the
validation error fails to improve for two epochs, the model is rebound to a deep copy of the best checkpoint
(`model = copy.deepcopy(best_model)`), the learning rate is halved and the Adam optimizer is rebuilt over the
restored module's parameters. Training therefore keeps updating the module that is actually used. The asserts show
that at least one rollback happened, that every epoch's training step (including those right after a rollback)
moved the current model's parameters, that the optimizer holds exactly the current model's parameters at the end,
and that the best validation error ends well below the initial one.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(8)

WINDOW = 24


def make_series(n=1200):
    t = torch.arange(n, dtype=torch.float32)
    return torch.sin(2 * torch.pi * t / 24) + 0.5 * torch.sin(2 * torch.pi * t / 168) + 0.1 * torch.randn(n)


def windows(series):
    x = series.unfold(0, WINDOW + 1, 1)
    return x[:, :WINDOW], x[:, WINDOW]


class Forecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(WINDOW, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.mlp(x).squeeze(-1)


def main():
    series = make_series()
    x, y = windows(series)
    x_tr, y_tr, x_va, y_va = x[:900], y[:900], x[900:], y[900:]

    model = Forecaster()
    lr = 0.05
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    with torch.no_grad():
        first_val = F.mse_loss(model(x_va), y_va).item()
    best_val, best_model, bad, rollbacks = float("inf"), copy.deepcopy(model), 0, 0

    for epoch in range(40):
        before = [p.detach().clone() for p in model.parameters()]
        for i in range(0, 900, 150):
            loss = F.mse_loss(model(x_tr[i:i + 150]), y_tr[i:i + 150])
            opt.zero_grad()
            loss.backward()
            opt.step()
        assert all(not torch.equal(a, p.detach()) for a, p in zip(before, model.parameters())), epoch

        with torch.no_grad():
            val = F.mse_loss(model(x_va), y_va).item()
        if val < best_val:
            best_val, best_model, bad = val, copy.deepcopy(model), 0
        else:
            bad += 1
            if bad >= 2:
                model = copy.deepcopy(best_model)
                lr *= 0.5
                opt = torch.optim.Adam(model.parameters(), lr=lr)
                bad, rollbacks = 0, rollbacks + 1

    held = [p for g in opt.param_groups for p in g["params"]]
    assert len(held) == len(list(model.parameters()))
    assert all(a is b for a, b in zip(held, model.parameters()))
    assert rollbacks >= 1, rollbacks
    assert best_val < 0.2 * first_val, (first_val, best_val)
    print(f"forecaster: val mse {first_val:.4f} -> best {best_val:.4f} after {rollbacks} rollback(s)")


if __name__ == "__main__":
    main()
