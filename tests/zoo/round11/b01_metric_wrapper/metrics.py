"""Running-average loss wrapper: feeds the progress bar and is also summed into the objective."""
import torch


class RunningLoss:
    def __init__(self, loss_fn, output_transform=lambda out: out):
        self.loss_fn = loss_fn
        self.output_transform = output_transform
        self.total = 0.0
        self.count = 0

    def reset(self):
        self.total, self.count = 0.0, 0

    def __call__(self, output):
        y_pred, y = self.output_transform(output)
        y_pred, y = y_pred.detach(), y.detach()
        value = self.loss_fn(y_pred, y)
        n = y.shape[0]
        self.total += value.item() * n
        self.count += n
        return value

    def compute(self):
        return self.total / max(self.count, 1)
