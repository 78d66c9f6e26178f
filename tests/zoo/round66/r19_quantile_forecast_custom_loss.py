"""
expect: GL002 68
dynamic: confirm
source: https://github.com/sktime/pytorch-forecasting/issues/689

Probabilistic forecasting (multi-horizon quantile regression, TFT-style output of seven
quantiles). The user derived `MyLoss` from the library's `QuantileLoss` pattern to put
more weight on the median and to penalise crossing quantiles, and gathered the
per-quantile scalars with `torch.tensor(per_quantile)`. `torch.tensor` copies the values
out of autograd, so the returned loss has no grad_fn and training stops with "element 0
of tensors does not require grad and does not have a grad_fn" (the report). The asserts
catch that error on the default path and show that the same loss assembled with
`torch.stack` trains the forecaster: its loss falls and the predicted 10%/90% quantiles
bracket the right share of held-out targets.
"""
from typing import List

import torch
import torch.nn as nn


class MultiHorizonMetric:
    def __init__(self, quantiles: List[float] = None, reduction: str = "mean"):
        self.quantiles = quantiles
        self.reduction = reduction

    def loss(self, y_pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError

    def __call__(self, y_pred, target):
        losses = self.loss(y_pred, target)
        return losses.mean() if self.reduction == "mean" else losses.sum()


class QuantileLoss(MultiHorizonMetric):
    def __init__(self, quantiles: List[float] = [0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.98], **kwargs):
        super().__init__(quantiles=quantiles, **kwargs)

    def loss(self, y_pred, target):
        losses = []
        for i, q in enumerate(self.quantiles):
            errors = target - y_pred[..., i]
            losses.append(torch.max((q - 1) * errors, q * errors).unsqueeze(-1))
        return 2 * torch.cat(losses, dim=2)


class MyLoss(MultiHorizonMetric):
    """Quantile loss with extra weight on the median and a quantile-crossing penalty."""

    def __init__(self, quantiles: List[float] = [0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.98],
                 median_weight: float = 2.0, stack_fn=None, **kwargs):
        super().__init__(quantiles=quantiles, **kwargs)
        self.median_weight = median_weight
        self.stack_fn = stack_fn

    def loss(self, y_pred, target):
        per_quantile = []
        for i, q in enumerate(self.quantiles):
            errors = target - y_pred[..., i]
            pinball = torch.max((q - 1) * errors, q * errors).mean()
            if q == 0.5:
                pinball = self.median_weight * pinball
            per_quantile.append(pinball)
        crossing = torch.relu(y_pred[..., :-1] - y_pred[..., 1:]).mean()
        per_quantile.append(crossing)
        if self.stack_fn is not None:
            return self.stack_fn(per_quantile)
        return torch.tensor(per_quantile)



torch.manual_seed(0)
torch.set_num_threads(1)

ENC, HORIZON, Q = 24, 6, [0.02, 0.1, 0.25, 0.5, 0.75, 0.9, 0.98]


def make_series(n):
    t = torch.arange(ENC + HORIZON).float()
    phase = torch.rand(n, 1) * 6.28
    level = torch.randn(n, 1)
    y = level + torch.sin(t / 3.0 + phase) + 0.3 * torch.randn(n, ENC + HORIZON)
    return y[:, :ENC], y[:, ENC:]


class QuantileForecaster(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(ENC, 64), nn.ReLU(), nn.Linear(64, HORIZON * len(Q)))

    def forward(self, x):
        return self.net(x).view(-1, HORIZON, len(Q))


def train(loss_fn, steps=300):
    torch.manual_seed(1)
    model = QuantileForecaster()
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    hist = []
    for _ in range(steps):
        x, y = make_series(128)
        loss = loss_fn(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        hist.append(loss.item())
    return model, hist


# buggy default path: per-quantile losses rebuilt with torch.tensor
try:
    train(MyLoss(quantiles=Q), steps=1)
    raised = None
except RuntimeError as e:
    raised = str(e)
assert raised is not None and "does not require grad" in raised, raised
print("torch.tensor-built loss:", raised)

# fixed: keep the graph with torch.stack
model, hist = train(MyLoss(quantiles=Q, stack_fn=torch.stack))
assert hist[-1] < 0.5 * hist[0], (hist[0], hist[-1])
x, y = make_series(2000)
with torch.no_grad():
    pred = model(x)
coverage = ((y > pred[..., 1]) & (y < pred[..., 5])).float().mean().item()
assert 0.65 < coverage < 0.92, coverage
print("stacked loss trains: %.3f -> %.3f, 10-90%% coverage %.2f" % (hist[0], hist[-1], coverage))
