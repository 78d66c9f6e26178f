"""Running-average helpers used by the training scripts."""
import torch


class TrackedLoss:
    def __init__(self, fn, name):
        self.fn = fn
        self.name = name
        self.sum = torch.zeros(())
        self.steps = 0

    def __call__(self, pred, target):
        value = self.fn(pred, target)
        self.sum += value.detach()
        self.steps += 1
        return value

    def mean(self):
        return (self.sum / max(self.steps, 1)).item()
