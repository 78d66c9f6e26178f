"""
expect: GL003 losses.py:23
dynamic: confirm
source: none, invented

Energy / day-ahead electricity load forecasting. The objective in losses.py is
MSE plus a RampPenalty module that discourages jagged forecasts. The penalty
pulls the forecast out of autograd (`.detach().cpu().numpy()`), takes second
differences in NumPy, rebuilds a tensor with `torch.from_numpy` and switches it
on with `requires_grad_()` so that the sum with the MSE "looks" differentiable.
The rebuilt tensor is a fresh leaf, so the forecaster never receives the ramp
term's gradient: the penalty value goes into the reported loss but does not
shape the model. The asserts show the parameter gradients of the full
objective equal those of MSE alone, that training leaves the forecast as jagged
as without the penalty, and that the torch.diff version changes the gradients
and gives smoother forecasts.
"""
import torch

from forecaster import DayAheadMLP
from losses import ForecastObjective, RampPenalty, TorchRampPenalty


def synthetic_load(n=256, seed=0):
    g = torch.Generator().manual_seed(seed)
    t = torch.arange(72.0)
    phase = torch.rand(n, 1, generator=g) * 6.28
    base = 1.0 + 0.5 * torch.sin(2 * 3.1416 * t / 24 + phase)
    series = base + 0.3 * torch.randn(n, 72, generator=g)
    return series[:, :48], series[:, 48:]


def param_grads(model, objective, x, y):
    model.zero_grad()
    objective(model(x), y).backward()
    return [p.grad.clone() for p in model.parameters()]


def train(objective, x, y, steps=150):
    torch.manual_seed(0)
    model = DayAheadMLP()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for _ in range(steps):
        opt.zero_grad()
        objective(model(x), y).backward()
        opt.step()
    with torch.no_grad():
        return torch.diff(model(x), n=2, dim=-1).pow(2).mean().item()


def main():
    x, y = synthetic_load()
    torch.manual_seed(0)
    model = DayAheadMLP()
    mse_only = ForecastObjective(RampPenalty(weight=0.0))
    buggy = ForecastObjective(RampPenalty(weight=5.0))
    fixed = ForecastObjective(TorchRampPenalty(weight=5.0))

    g_mse = param_grads(model, mse_only, x, y)
    g_bug = param_grads(model, buggy, x, y)
    g_fix = param_grads(model, fixed, x, y)
    assert all(torch.equal(a, b) for a, b in zip(g_mse, g_bug)), "ramp term contributes no gradient"
    assert any(not torch.allclose(a, b) for a, b in zip(g_mse, g_fix))

    rough_mse = train(mse_only, x, y)
    rough_bug = train(buggy, x, y)
    rough_fix = train(fixed, x, y)
    assert abs(rough_bug - rough_mse) < 1e-6, (rough_bug, rough_mse)
    assert rough_fix < 0.5 * rough_mse, (rough_fix, rough_mse)
    print(f"k07 ok: curvature mse-only {rough_mse:.4f}, numpy penalty {rough_bug:.4f}, torch penalty {rough_fix:.4f}")


if __name__ == "__main__":
    main()
