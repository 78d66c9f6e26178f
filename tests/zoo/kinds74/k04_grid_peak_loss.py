"""
expect: GL003 76
dynamic: confirm
source: none, invented

Power systems / load forecasting. ``LoadForecastTrainer`` trains a 24-hour-ahead
feeder load forecaster with an MSE term plus a peak-hour penalty, since under-
forecasting the evening peak is what trips transformers. The penalty is computed by
``PeakHourPenalty``, which pulls the forecast out with ``.detach().cpu().numpy()``,
picks the peak hours with NumPy quantiles and returns ``torch.from_numpy(...)``.
``compute_losses`` then calls ``peak.requires_grad_(True)`` so the summed loss
"has a gradient" - but the term is a fresh leaf cut off from the model, so the
weighted peak penalty contributes nothing to the model's gradients. The asserts show
the model gradient of mse + 5*peak is identical to that of mse alone, and that a
torch implementation of the same penalty changes the gradient and, after training,
gives a lower peak-hour error than the buggy trainer.
"""
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F


class FeederForecaster(nn.Module):
    def __init__(self, history=48, horizon=24, n_weather=4, hidden=64):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(history + n_weather, hidden), nn.ReLU(),
            nn.Linear(hidden, horizon),
        )

    def forward(self, load_history, weather):
        return self.net(torch.cat([load_history, weather], dim=-1))


class PeakHourPenalty:
    """Squared error restricted to each day's top-quantile hours of actual load."""

    def __init__(self, quantile=0.8):
        self.quantile = quantile

    def __call__(self, forecast, actual):
        f = forecast.detach().cpu().numpy()
        a = actual.detach().cpu().numpy()
        thresh = np.quantile(a, self.quantile, axis=1, keepdims=True)
        mask = a >= thresh
        under = np.clip(a - f, 0.0, None)  # only under-forecast at the peak hurts
        err = (under ** 2 * mask).sum() / max(mask.sum(), 1)
        return torch.from_numpy(np.asarray(err, dtype=np.float32))


class TorchPeakHourPenalty(PeakHourPenalty):
    """Fixed variant: same penalty, kept in the autograd graph."""

    def __call__(self, forecast, actual):
        thresh = torch.quantile(actual, self.quantile, dim=1, keepdim=True)
        mask = (actual >= thresh).float()
        under = (actual - forecast).clamp_min(0.0)
        return (under ** 2 * mask).sum() / mask.sum().clamp_min(1.0)


class LoadForecastTrainer:
    def __init__(self, model, config, penalty=None):
        self.model = model
        self.config = config
        self.peak_penalty = penalty or PeakHourPenalty(config["peak_quantile"])
        self.optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"])

    def compute_losses(self, batch):
        history, weather, target = batch
        forecast = self.model(history, weather)
        losses = {"mse": F.mse_loss(forecast, target)}
        peak = self.peak_penalty(forecast, target)
        if self.config["peak_weight"] > 0:
            if not peak.requires_grad:
                peak.requires_grad_(True)
            losses["peak"] = self.config["peak_weight"] * peak
        return losses

    def step(self, batch):
        losses = self.compute_losses(batch)
        total = sum(losses.values())
        self.optimizer.zero_grad()
        total.backward()
        self.optimizer.step()
        return {k: v.item() for k, v in losses.items()}


def synthetic_feeder(n_days=128, seed=0):
    g = torch.Generator().manual_seed(seed)
    hours = torch.arange(72, dtype=torch.float32)
    base = 1.0 + 0.3 * torch.sin(2 * torch.pi * (hours - 6) / 24)
    evening = torch.exp(-0.5 * ((hours % 24 - 19) / 1.5) ** 2)
    temp = torch.randn(n_days, 1, generator=g)
    scale = 1.0 + 0.2 * torch.randn(n_days, 1, generator=g)
    load = scale * base + (0.8 + 0.6 * temp) * evening + 0.05 * torch.randn(n_days, 72, generator=g)
    weather = torch.cat([temp, temp ** 2, torch.randn(n_days, 2, generator=g)], dim=1)
    return load[:, :48], weather, load[:, 48:]


def model_grads(trainer, batch):
    trainer.optimizer.zero_grad()
    sum(trainer.compute_losses(batch).values()).backward()
    return torch.cat([p.grad.flatten().clone() for p in trainer.model.parameters()])


def peak_error(model, batch, quantile):
    with torch.no_grad():
        return float(TorchPeakHourPenalty(quantile)(model(batch[0], batch[1]), batch[2]))


def main():
    torch.set_num_threads(1)  # small model; avoid oversubscription on shared CI boxes
    batch = synthetic_feeder()
    cfg = {"lr": 3e-3, "peak_weight": 5.0, "peak_quantile": 0.8}
    mse_only_cfg = dict(cfg, peak_weight=0.0)

    torch.manual_seed(0)
    model = FeederForecaster()
    buggy = LoadForecastTrainer(model, cfg)
    losses = buggy.compute_losses(batch)
    assert losses["peak"].grad_fn is not None  # only the multiply by the weight
    assert losses["peak"].grad_fn.next_functions[0][0].__class__.__name__ == "AccumulateGrad"

    g_buggy = model_grads(buggy, batch)
    g_mse = model_grads(LoadForecastTrainer(model, mse_only_cfg), batch)
    assert float(losses["peak"].detach()) > 0.01, "the penalty is large..."
    assert torch.allclose(g_buggy, g_mse), "...but adds nothing to the model gradient"
    g_fixed = model_grads(LoadForecastTrainer(model, cfg, TorchPeakHourPenalty(0.8)), batch)
    assert not torch.allclose(g_fixed, g_mse, atol=1e-4), "torch penalty does reach the model"
    print("buggy: peak term %.3f adds 0 to grads; fixed grad diff %.3f"
          % (float(losses["peak"].detach()), float((g_fixed - g_mse).norm())))

    results = {}
    for name, penalty in (("buggy", None), ("fixed", TorchPeakHourPenalty(0.8))):
        torch.manual_seed(1)
        trainer = LoadForecastTrainer(FeederForecaster(), cfg, penalty)
        for _ in range(120):
            trainer.step(batch)
        results[name] = peak_error(trainer.model, batch, 0.8)
    assert results["fixed"] < 0.7 * results["buggy"], results
    print("peak-hour under-forecast error after training:", results)


if __name__ == "__main__":
    main()
