"""
expect: GL001 25
dynamic: confirm
source: kinds check 22, kind 3 (written for this check)

A forecaster encodes each window into a preallocated buffer with .detach(), then a
trainable affine calibration is fit on top, so the encoder never trains. The asserts
show the encoder's grads are None while scale/bias train, and a no-detach variant trains it.
"""
import torch
import torch.nn as nn


class WindowForecaster(nn.Module):
    def __init__(self, win=12):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(win, 16), nn.GELU(), nn.Linear(16, 1))
        self.scale = nn.Parameter(torch.ones(1))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, windows):
        n = windows.shape[0]
        buf = torch.zeros(n)
        for i in range(n):
            buf[i] = self.encoder(windows[i]).detach()
        return self.scale * buf + self.bias


class WindowForecasterFixed(WindowForecaster):
    def forward(self, windows):
        enc = torch.stack([self.encoder(w).squeeze() for w in windows])
        return self.scale * enc + self.bias


torch.manual_seed(5)
series = torch.sin(torch.linspace(0, 12, 200)) + 0.1 * torch.randn(200)
windows = series.unfold(0, 12, 1)[:-1]
targets = series[12:]

model = WindowForecaster()
loss = ((model(windows) - targets) ** 2).mean()
loss.backward()
assert all(p.grad is None for p in model.encoder.parameters()), "encoder starved"
assert model.scale.grad.abs() > 0 and model.bias.grad.abs() > 0

fixed = WindowForecasterFixed()
((fixed(windows) - targets) ** 2).mean().backward()
assert all(p.grad.abs().sum() > 0 for p in fixed.encoder.parameters())
print("ok: encoder starved by detached buffer")
