import torch
import torch.nn as nn
import torch.nn.functional as F


class StatefulForecaster(nn.Module):
    """GRU forecaster for a sensor stream; keeps its hidden state between calls."""

    def __init__(self, n_sensors=3, n_hidden=16):
        super().__init__()
        self.cell = nn.GRUCell(n_sensors, n_hidden)
        self.out = nn.Linear(n_hidden, n_sensors)
        self.h = None

    def forward(self, window):  # window: (T, B, n_sensors)
        h = self.h if self.h is not None else window.new_zeros(window.shape[1], self.cell.hidden_size)
        preds = []
        for x_t in window:
            h = self.cell(x_t, h)
            preds.append(self.out(h))
        self.h = h
        return torch.stack(preds)


def train_epoch(model, optimizer, batches):
    # gradients are accumulated over the whole epoch and applied once at the end
    optimizer.zero_grad()
    total = 0.0
    for window, target in batches:
        pred = model(window)
        loss = F.mse_loss(pred, target)
        loss.backward(retain_graph=True)
        total += loss.item()
    optimizer.step()
    return total / len(batches)
