"""Elastic weight consolidation: per-task Fisher diagonals and anchor weights, and the quadratic penalty."""
import torch
from torch import nn


class EWCRegularizer(nn.Module):
    def __init__(self, ewc_lambda, clip_value=1e3):
        super().__init__()
        self.ewc_lambda = ewc_lambda
        self.clip_value = clip_value
        self.tasks_encountered = []
        self.fisher = {}
        self.optpar = {}

    def update_fisher_optpar(self, task_id, named_parameters):
        """Call after backward() on the finished task's loss: grads are there, weights are optimal."""
        self.tasks_encountered.append(task_id)
        self.fisher[task_id] = {}
        self.optpar[task_id] = {}
        for name, param in named_parameters:
            self.optpar[task_id][name] = param.data.clone()
            self.fisher[task_id][name] = torch.clamp(param.grad.data.clone().pow(2), 0, self.clip_value)

    def forward(self, named_params):
        named_params = list(named_params)
        penalty = torch.zeros(())
        for task_id in self.tasks_encountered:
            for name, param in named_params:
                fisher = self.fisher[task_id][name]
                optpar = self.optpar[task_id][name]
                penalty = penalty + (fisher * (optpar - param).pow(2)).sum() * self.ewc_lambda
        return penalty
