"""
expect: GL002 75
dynamic: confirm
source: none, invented

An LSTM forecaster for an hourly electricity-load-like series (two seasonalities plus noise) written
in the old `Variable` style.  Input windows are min-max scaled; the author wants the MSE in
real units, so `scaler.inverse` is applied to the prediction, and the result is rebuilt as
`Variable(scaler.inverse(pred.data), requires_grad=True)` before going into the criterion.  That
rebuilt tensor is a brand-new leaf: `loss.backward()` succeeds and fills its `.grad`, but nothing
flows back into the LSTM, whose parameters keep `.grad is None` and never change.  The asserts show
that, and that applying the inverse scaling to `pred` itself trains the model (validation error
drops well below the untrained one).
"""
import math

import torch
import torch.nn as nn
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)


class MinMaxScaler:
    def fit(self, series):
        self.lo, self.hi = series.min(), series.max()
        return self

    def transform(self, x):
        return (x - self.lo) / (self.hi - self.lo)

    def inverse(self, x):
        return x * (self.hi - self.lo) + self.lo


class Forecaster(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.lstm = nn.LSTM(1, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 1)

    def forward(self, window):
        h, _ = self.lstm(window)
        return self.out(h[:, -1])


def load_series(n=2000):
    t = torch.arange(n).float()
    return 500 + 120 * torch.sin(2 * math.pi * t / 24) + 60 * torch.sin(2 * math.pi * t / 168) + 10 * torch.randn(n)


def windows(series, idx, lookback=48):
    x = torch.stack([series[i - lookback:i] for i in idx]).unsqueeze(-1)
    y = series[idx].unsqueeze(-1)
    return x, y


def train(legacy, epochs=150):
    torch.manual_seed(0)
    raw = load_series()
    scaler = MinMaxScaler().fit(raw[:1500])
    scaled = scaler.transform(raw)
    model = Forecaster()
    criterion = nn.MSELoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=5e-3)
    start = {k: v.clone() for k, v in model.state_dict().items()}
    for epoch in range(epochs):
        idx = torch.randint(48, 1500, (64,)).tolist()
        inputs, _ = windows(scaled, idx)
        inputs = Variable(inputs)
        target = Variable(raw[idx].unsqueeze(-1))
        pred = model(inputs)
        if legacy:
            pred_units = Variable(scaler.inverse(pred.data), requires_grad=True)
        else:
            pred_units = scaler.inverse(pred)
        loss = criterion(pred_units, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    grads = [p.grad for p in model.parameters()]
    moved = any(not torch.equal(start[k], v) for k, v in model.state_dict().items())
    with torch.no_grad():
        idx = list(range(1548, 2000))
        x, _ = windows(scaled, idx)
        rmse = (scaler.inverse(model(x)) - raw[idx].unsqueeze(-1)).pow(2).mean().sqrt().item()
    return grads, moved, rmse


if __name__ == "__main__":
    grads, moved, rmse_legacy = train(legacy=True)
    assert all(g is None for g in grads) and not moved
    grads, moved, rmse_fit = train(legacy=False)
    assert moved and all(g is not None for g in grads)
    assert rmse_fit < 0.5 * rmse_legacy, (rmse_fit, rmse_legacy)
    print(f"k13: rebuilt Variable leaves LSTM untrained (RMSE {rmse_legacy:.1f}) vs trained (RMSE {rmse_fit:.1f})")
