"""Tiny stand-in for ``lightning.pytorch`` (LightningModule + Trainer).

Used because lightning is not installed in the CI image.  Only the pieces the
phase picker relies on are implemented: ``log``, ``training_step``,
``configure_optimizers`` and a ``Trainer.fit`` loop that owns the backward pass.
"""
import torch
from torch import nn


class LightningModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.logged_metrics = {}

    def log(self, name, value, prog_bar=False):
        if torch.is_tensor(value):
            value = float(value.detach())
        self.logged_metrics.setdefault(name, []).append(value)

    def training_step(self, batch, batch_idx):  # pragma: no cover - abstract
        raise NotImplementedError

    def configure_optimizers(self):  # pragma: no cover - abstract
        raise NotImplementedError


class Trainer:
    def __init__(self, max_epochs=1, gradient_clip_val=None):
        self.max_epochs = max_epochs
        self.gradient_clip_val = gradient_clip_val
        self.global_step = 0

    def fit(self, model, train_dataloaders):
        optimizer = model.configure_optimizers()
        model.train()
        for _epoch in range(self.max_epochs):
            for batch_idx, batch in enumerate(train_dataloaders):
                optimizer.zero_grad(set_to_none=True)
                loss = model.training_step(batch, batch_idx)
                loss.backward()
                if self.gradient_clip_val is not None:
                    nn.utils.clip_grad_norm_(model.parameters(), self.gradient_clip_val)
                optimizer.step()
                self.global_step += 1
        return self
