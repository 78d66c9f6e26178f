"""Periodic evaluation during training: runs a metric every `every` steps and logs it."""
import torch


class PeriodicEvaluator:
    def __init__(self, metric_fn, every=25, name="metric"):
        self.metric_fn = metric_fn
        self.every = every
        self.name = name
        self.log = []

    def maybe_evaluate(self, step, model):
        if step % self.every != 0:
            return None
        was_training = model.training
        model.eval()
        with torch.no_grad():
            value = float(self.metric_fn(model))
        model.train(was_training)
        self.log.append((step, value))
        return value
