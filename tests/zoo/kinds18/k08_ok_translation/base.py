"""Criterion base class shared by the toy translation recipes."""
import torch
import torch.nn as nn


class BaseCriterion(nn.Module):
    def __init__(self, padding_idx=0):
        super().__init__()
        self.padding_idx = padding_idx

    def compute_accuracy(self, lprobs, target):
        mask = target.ne(self.padding_idx)
        pred = lprobs.argmax(-1).masked_select(mask)
        n_correct = torch.sum(pred.eq(target.masked_select(mask)))
        total = torch.sum(mask)
        return n_correct, total

    @staticmethod
    def reduce_metrics(logging_outputs):
        n_correct = sum(int(log["n_correct"]) for log in logging_outputs)
        total = sum(int(log["total"]) for log in logging_outputs)
        return {"accuracy": n_correct / max(total, 1)}
