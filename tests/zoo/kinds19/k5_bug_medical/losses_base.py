"""Shared pieces for the calibration-aware losses used by the lesion classifier."""
import torch
import torch.nn as nn


class CalibrationLossBase(nn.Module):
    def __init__(self, n_classes, smoothing=0.0):
        super().__init__()
        self.n_classes = n_classes
        self.smoothing = smoothing

    def _one_hot(self, y):
        off = self.smoothing / self.n_classes
        return torch.full((y.numel(), self.n_classes), off).scatter_(1, y[:, None], 1 - self.smoothing + off)

    def _probs(self, logits):
        return logits.data.softmax(-1)
