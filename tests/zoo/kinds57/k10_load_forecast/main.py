"""
expect: GL002 main.py:56
dynamic: confirm
source: none, invented

Day-ahead electricity-load forecasting with an MLP over the previous 24 hourly readings. Inputs and
targets are min-max scaled, and the author wants the loss in kilowatts, so the network output is mapped
back with the scaler's `inverse_transform` (a plain object in `scaling.py`). Written in the old
`Variable` style, the prediction goes in as `pred.data` and comes out wrapped in
`Variable(..., requires_grad=True)`: a brand-new leaf with no history, so the MSE in kilowatts reaches
none of the network's weights and the Adam steps do nothing. The asserts show all parameters with
`.grad` None and unchanged after training, and that calling `inverse_transform(pred)` on the tensor
itself gives gradients and a clearly lower error.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

from scaling import MinMaxScaler

torch.manual_seed(0)
torch.set_num_threads(1)

LAGS, HORIZON = 24, 6


def synth_load(hours=24 * 60):
    t = torch.arange(hours, dtype=torch.float32)
    daily = 300 * torch.sin(2 * math.pi * t / 24) + 120 * torch.sin(2 * math.pi * t / (24 * 7))
    return 1500 + daily + 40 * torch.randn(hours)


def windows(series):
    xs = series.unfold(0, LAGS + HORIZON, 1)
    return xs[:, :LAGS], xs[:, LAGS:]


def train(legacy_api, epochs=30):
    torch.manual_seed(0)
    load = synth_load()
    x_kw, y_kw = windows(load)
    scaler = MinMaxScaler().fit(load[:, None])
    x = scaler.transform(x_kw[..., None])[..., 0]
    forecaster = nn.Sequential(nn.Linear(LAGS, 64), nn.ReLU(), nn.Linear(64, HORIZON))
    optimizer = torch.optim.Adam(forecaster.parameters(), lr=3e-3)
    before = [p.detach().clone() for p in forecaster.parameters()]
    criterion = nn.MSELoss()
    for epoch in range(epochs):
        for i in range(0, x.shape[0], 256):
            pred = forecaster(Variable(x[i:i + 256]))
            target_kw = Variable(y_kw[i:i + 256])
            if legacy_api:
                pred_kw = Variable(scaler.inverse_transform(pred.data), requires_grad=True)
            else:
                pred_kw = scaler.inverse_transform(pred)
            loss = criterion(pred_kw, target_kw)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    with torch.no_grad():
        rmse = F.mse_loss(scaler.inverse_transform(forecaster(x)), y_kw).sqrt().item()
    moved = any(not torch.equal(a, b) for a, b in zip(before, forecaster.parameters()))
    return forecaster, moved, rmse


if __name__ == "__main__":
    model, moved, rmse_legacy = train(legacy_api=True)
    assert all(p.grad is None for p in model.parameters())
    assert not moved

    model, moved, rmse_fixed = train(legacy_api=False)
    assert all(p.grad is not None for p in model.parameters())
    assert moved and rmse_fixed < 0.5 * rmse_legacy, (rmse_legacy, rmse_fixed)
    print(f"RMSE kW: legacy API {rmse_legacy:.1f}, direct {rmse_fixed:.1f}")
