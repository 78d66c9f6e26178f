"""Minimal stand-in for lightning.pytorch (not installed here): LightningModule + Trainer."""
import torch
import torch.nn as nn


class LightningModule(nn.Module):
    def __init__(self):
        super().__init__()
        self.logged = {}

    def log(self, name, value, prog_bar=False):
        self.logged[name] = float(value.detach()) if torch.is_tensor(value) else float(value)

    def training_step(self, batch, batch_idx):
        raise NotImplementedError

    def validation_step(self, batch, batch_idx):
        return None

    def configure_optimizers(self):
        raise NotImplementedError


class Trainer:
    def __init__(self, max_epochs=1):
        self.max_epochs = max_epochs

    def fit(self, module, train_dataloaders, val_dataloaders=None):
        opt = module.configure_optimizers()
        for _ in range(self.max_epochs):
            module.train()
            for i, batch in enumerate(train_dataloaders):
                loss = module.training_step(batch, i)
                opt.zero_grad()
                loss.backward()
                opt.step()
            if val_dataloaders is not None:
                module.eval()
                with torch.no_grad():
                    for i, batch in enumerate(val_dataloaders):
                        module.validation_step(batch, i)
