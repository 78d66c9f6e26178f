"""Running-average helpers used by the training scripts."""
import torch


class AveragedLoss:
    def __init__(self, fn, name):
        self.fn = fn
        self.name = name
        self.total = 0.0
        self.count = 0

    def __call__(self, pred, target):
        value = self.fn(pred.detach(), target)
        self.total += value.item()
        self.count += 1
        return value

    @property
    def average(self):
        return self.total / max(self.count, 1)
