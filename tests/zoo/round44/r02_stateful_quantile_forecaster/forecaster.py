"""Stateful quantile forecaster whose recurrent state is carried from batch to batch."""
import torch
import torch.nn as nn


def pinball_loss(preds, target, quantiles):
    # preds: (N, H, Q), target: (N, H)
    diff = target.unsqueeze(-1) - preds
    q = torch.tensor(quantiles).view(1, 1, -1)
    return torch.maximum(q * diff, (q - 1) * diff)


class StatefulQuantileForecaster(nn.Module):
    """Leaky recurrent encoder + quantile head.

    The state of the last window of a batch is kept in self._last_state and used
    as the starting state of the next batch, so that context flows across
    consecutive chunks of one long consumption series.
    """

    def __init__(self, window, n_features, hidden, quantiles, horizon, leak=0.7):
        super().__init__()
        self.encoder = nn.Linear(window * n_features, hidden)
        self.head = nn.Linear(hidden, len(quantiles))
        self.quantiles = quantiles
        self.horizon = horizon
        self.leak = leak
        self._last_state = None

    def forward(self, window_batch, prev_state=None):
        fresh = torch.tanh(self.encoder(window_batch.flatten(1)))
        if prev_state is None:
            state = fresh
        else:
            state = self.leak * prev_state + (1.0 - self.leak) * fresh
        return state, self.head(state)

    def training_step(self, batch):
        inputs, targets = batch  # inputs: (N, horizon, window, F), targets: (N, horizon)
        state = self._last_state
        preds = []
        for h in range(self.horizon):
            state, q = self.forward(inputs[:, h], state)
            preds.append(q)
        preds = torch.stack(preds, dim=1)
        loss = pinball_loss(preds, targets, self.quantiles).mean(dim=2).sum(dim=1).mean()
        self._last_state = state
        return loss

    def on_train_epoch_end(self):
        self._last_state = None

    def backward(self, loss, is_last_batch):
        # keep the graph so that backprop can run "across batches"
        if is_last_batch:
            loss.backward(retain_graph=False)
        else:
            loss.backward(retain_graph=True)
