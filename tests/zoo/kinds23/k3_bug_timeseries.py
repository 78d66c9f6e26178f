"""
expect: GL005 27
dynamic: confirm
source: kinds check 23, kind 3 (written for this check)

A gated residual forecaster. GatedResidual takes mode="exact" or mode="fast"; the "fast" arm rescales the sigmoid
gate in place, but sigmoid saved that output for its backward. The baseline is built with "exact" and only
evaluated; the forecaster that is trained is built with mode="fast", so its first backward raises "modified by an
inplace operation". The asserts catch that error and show the same weights train fine with mode="exact".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedResidual(nn.Module):
    def __init__(self, dim, mode="exact"):
        super().__init__()
        self.value = nn.Linear(dim, dim)
        self.gate = nn.Linear(dim, dim)
        self.mode = mode
        self.register_buffer("gate_scale", torch.tensor(2.0))

    def forward(self, x):
        g = torch.sigmoid(self.gate(x))
        if self.mode == "fast":
            g.mul_(self.gate_scale)
        else:
            g = g * self.gate_scale
        return x + g * self.value(x)


class Forecaster(nn.Module):
    def __init__(self, window, horizon, dim=24, mode="exact"):
        super().__init__()
        self.proj = nn.Linear(window, dim)
        self.blocks = nn.Sequential(GatedResidual(dim, mode), GatedResidual(dim, mode))
        self.out = nn.Linear(dim, horizon)

    def forward(self, history):
        return self.out(self.blocks(self.proj(history)))


torch.manual_seed(8)
WINDOW, HORIZON = 32, 8
series = torch.sin(torch.linspace(0, 40, 600)) + 0.1 * torch.randn(600)
starts = torch.randint(0, 600 - WINDOW - HORIZON, (16,))
x = torch.stack([series[s:s + WINDOW] for s in starts])
y = torch.stack([series[s + WINDOW:s + WINDOW + HORIZON] for s in starts])

baseline = Forecaster(WINDOW, HORIZON, mode="exact").eval()
with torch.no_grad():
    base_mse = F.mse_loss(baseline(x), y).item()

model = Forecaster(WINDOW, HORIZON, mode="fast")
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss = F.mse_loss(model(x), y)
try:
    loss.backward()
    raise AssertionError("expected the in-place gate rescale to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

# fixed variant: same weights, exact arm, backward works and reaches every parameter
fixed = Forecaster(WINDOW, HORIZON, mode="exact")
fixed.load_state_dict(model.state_dict())
F.mse_loss(fixed(x), y).backward()
assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in fixed.parameters())
print("bug confirmed: trained forecaster uses mode='fast' and its in-place gate breaks backward")
