"""Loss terms for the day-ahead load forecaster."""
import numpy as np
import torch
import torch.nn as nn


class RampPenalty(nn.Module):
    """Penalises second differences of the forecast (grid operators dislike
    forecasts that ramp up and down hour to hour)."""

    def __init__(self, weight=0.5, order=2):
        super().__init__()
        self.weight = weight
        self.order = order

    def _curvature(self, forecast):
        series = forecast.detach().cpu().numpy()
        d = np.diff(series, n=self.order, axis=-1)
        return np.mean(d ** 2)

    def forward(self, forecast):
        penalty = torch.from_numpy(np.asarray(self._curvature(forecast), dtype=np.float32))
        penalty.requires_grad_()
        return self.weight * penalty


class TorchRampPenalty(RampPenalty):
    def forward(self, forecast):
        d = torch.diff(forecast, n=self.order, dim=-1)
        return self.weight * d.pow(2).mean()


class ForecastObjective(nn.Module):
    def __init__(self, ramp):
        super().__init__()
        self.mse = nn.MSELoss()
        self.ramp = ramp

    def forward(self, forecast, target):
        return self.mse(forecast, target) + self.ramp(forecast)
