"""Day-ahead electricity load forecaster: a GRU encoder over the past week, linear head."""
import torch
import torch.nn as nn
import torch.nn.functional as F

from lightning_stub import LightningModule


class LoadForecaster(LightningModule):
    def __init__(self, n_features=3, hidden=32, horizon=24, enc_lr=3e-3, head_lr=3e-3):
        super().__init__()
        self.encoder = nn.GRU(n_features, hidden, batch_first=True)
        self.head = nn.Linear(hidden, horizon)
        self.enc_lr, self.head_lr = enc_lr, head_lr

    def encode(self, history):
        _, h = self.encoder(history)
        return h[-1]

    @torch.no_grad()
    def forward(self, history):
        return self.encode(history)

    def training_step(self, batch, batch_idx):
        history, target = batch
        state = self(history)
        pred = self.head(state)
        loss = F.mse_loss(pred, target)
        self.log("train_mse", loss)
        return loss

    def validation_step(self, batch, batch_idx):
        history, target = batch
        self.log("val_mse", F.mse_loss(self.head(self(history)), target))

    def configure_optimizers(self):
        return torch.optim.Adam([
            {"params": self.encoder.parameters(), "lr": self.enc_lr},
            {"params": self.head.parameters(), "lr": self.head_lr},
        ])


class LoadForecasterFixed(LoadForecaster):
    def forward(self, history):
        return self.encode(history)
