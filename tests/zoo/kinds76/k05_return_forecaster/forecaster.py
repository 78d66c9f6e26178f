"""Next-day return forecaster and its trainer."""
import torch
import torch.nn as nn

import runtime  # noqa: F401  (applies the deterministic runtime settings)


class ReturnForecaster(nn.Module):
    def __init__(self, n_assets=5, window=10, hidden=24):
        super().__init__()
        self.gru = nn.GRU(n_assets, hidden, batch_first=True)
        self.head = nn.Linear(hidden, n_assets)

    def forward(self, returns_window):
        _, h = self.gru(returns_window)
        return self.head(h[-1])


class ForecastTrainer:
    def __init__(self, model, lr=5e-3, huber_delta=0.5):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)
        self.loss_fn = nn.HuberLoss(delta=huber_delta)

    def step(self, window, target):
        self.model.train()
        self.opt.zero_grad()
        pred = self.model(window)
        loss = self.loss_fn(pred, target)
        loss.backward()
        nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.opt.step()
        return loss.item()
