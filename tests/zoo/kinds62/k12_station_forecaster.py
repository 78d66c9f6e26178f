"""
expect: none
dynamic: dismiss
source: none, invented

One-step-ahead forecasting of synthetic hourly temperature and pressure at 12 weather stations with a two-layer
stack of GRU cells, streamed over one long series. Every `window` hours the accumulated forecast error is
backpropagated with retain_graph=True, the optimizer steps, the window loss is reset to 0.0 and the pair of
layer states is passed through split_window_state, which returns `(h_low.detach(), h_high.detach())`. The next
window therefore starts from plain tensors and its graph never reaches the previous window's operations or the
weights the optimizer has since updated. The asserts show the autograd graph behind every window loss has the
same size, and the forecast error drops well below that of the untrained model.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

N_STATIONS, N_VARS, HIDDEN = 12, 2, 48


def synthetic_weather(hours=720):
    t = torch.arange(hours).float()
    offset = torch.rand(N_STATIONS, 1) * 2 * math.pi
    temp = torch.sin(2 * math.pi * t / 24 + offset) + 0.3 * torch.sin(2 * math.pi * t / 168)
    pressure = 0.5 * torch.cos(2 * math.pi * t / 36 + offset)
    series = torch.stack([temp, pressure], dim=-1) + 0.05 * torch.randn(N_STATIONS, hours, N_VARS)
    return series.transpose(0, 1)  # (hours, stations, vars)


def node_count(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


low = nn.GRUCell(N_VARS, HIDDEN)
high = nn.GRUCell(HIDDEN, HIDDEN)
readout = nn.Linear(HIDDEN, N_VARS)
params = list(low.parameters()) + list(high.parameters()) + list(readout.parameters())


def forecast_step(x, state):
    h_low, h_high = state
    h_low = low(x, h_low)
    h_high = high(h_low, h_high)
    return readout(h_high), (h_low, h_high)


def split_window_state(state):
    h_low, h_high = state
    return h_low.detach(), h_high.detach()


def evaluate(series):
    with torch.no_grad():
        state = (torch.zeros(N_STATIONS, HIDDEN), torch.zeros(N_STATIONS, HIDDEN))
        err = 0.0
        for t in range(series.size(0) - 1):
            pred, state = forecast_step(series[t], state)
            err += F.mse_loss(pred, series[t + 1]).item()
        return err / (series.size(0) - 1)


def fit(series, epochs=3, window=24):
    opt = torch.optim.Adam(params, lr=3e-3)
    sizes = []
    for epoch in range(epochs):
        state = (torch.zeros(N_STATIONS, HIDDEN), torch.zeros(N_STATIONS, HIDDEN))
        window_loss = 0.0
        for t in range(series.size(0) - 1):
            pred, state = forecast_step(series[t], state)
            window_loss = window_loss + F.mse_loss(pred, series[t + 1])
            if (t + 1) % window == 0:
                sizes.append(node_count(window_loss))
                opt.zero_grad()
                (window_loss / window).backward(retain_graph=True)
                opt.step()
                window_loss = 0.0
                state = split_window_state(state)
    return sizes


def main():
    train, test = synthetic_weather(), synthetic_weather(240)
    before = evaluate(test)
    sizes = fit(train)
    after = evaluate(test)
    assert len(set(sizes)) == 1, sorted(set(sizes))
    assert after < 0.3 * before, (before, after)
    print(f"k12: test mse {before:.3f} -> {after:.3f}")


if __name__ == "__main__":
    main()
