"""CRNN + mean-teacher training epoch for weakly/strongly labelled sound event detection."""
import torch
import torch.nn as nn


class CRNN(nn.Module):
    def __init__(self, n_mels=16, n_classes=3, hidden=16):
        super().__init__()
        self.cnn = nn.Sequential(nn.Conv1d(n_mels, 32, 3, padding=1), nn.ReLU())
        self.rnn = nn.GRU(32, hidden, batch_first=True, bidirectional=True)
        self.dense = nn.Linear(2 * hidden, n_classes)

    def forward(self, x):                      # x: (batch, frames, mels)
        h = self.cnn(x.transpose(1, 2)).transpose(1, 2)
        h, _ = self.rnn(h)
        strong = torch.sigmoid(self.dense(h))   # frame-level
        weak = strong.max(1)[0]                 # clip-level
        return strong, weak


def update_ema_variables(model, ema_model, alpha, global_step):
    alpha = min(1 - 1 / (global_step + 1), alpha)
    for ema_param, param in zip(ema_model.parameters(), model.parameters()):
        ema_param.data.mul_(alpha).add_(param.data, alpha=1 - alpha)


class Meters(dict):
    def update_value(self, key, value):
        self.setdefault(key, []).append(value)


def train_epoch(batches, model, ema_model, optimizer, epoch, weak_mask, strong_mask,
                max_consistency_cost=2.0, rampup_length=20):
    class_criterion = nn.BCELoss()
    consistency_criterion = nn.MSELoss()
    meters = Meters()
    for i, (batch_input, ema_batch_input, target) in enumerate(batches):
        global_step = epoch * len(batches) + i
        rampup_value = min(1.0, global_step / rampup_length)

        strong_pred_ema, weak_pred_ema = ema_model(ema_batch_input)
        strong_pred_ema = strong_pred_ema.detach()      # teacher is a fixed target
        weak_pred_ema = weak_pred_ema.detach()

        strong_pred, weak_pred = model(batch_input)
        target_weak = target.max(-2)[0]

        loss = class_criterion(weak_pred[weak_mask], target_weak[weak_mask])
        meters.update_value("weak", loss.item())
        strong_class_loss = class_criterion(strong_pred[strong_mask], target[strong_mask])
        meters.update_value("strong", strong_class_loss.item())
        loss += strong_class_loss                # BCE output is not saved by anyone

        consistency_cost = max_consistency_cost * rampup_value
        consistency_loss_strong = consistency_cost * consistency_criterion(strong_pred, strong_pred_ema)
        consistency_loss_weak = consistency_cost * consistency_criterion(weak_pred, weak_pred_ema)
        loss += consistency_loss_strong
        loss += consistency_loss_weak
        meters.update_value("loss", loss.item())

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        update_ema_variables(model, ema_model, 0.99, global_step + 1)
    return meters
