"""Meta-learner for few-shot traffic forecasting: adapt a copy per city, then a meta step."""
import copy

import torch
import torch.nn as nn
from torch.func import functional_call


class Forecaster(nn.Module):
    def __init__(self, lookback=12, hidden=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(lookback, hidden), nn.ReLU(), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


class STMeta(nn.Module):
    def __init__(self, update_lr=0.05, meta_lr=0.01, update_step=3):
        super().__init__()
        self.model = Forecaster()
        self.update_lr, self.update_step = update_lr, update_step
        self.meta_optim = torch.optim.Adam(self.model.parameters(), lr=meta_lr)
        self.loss = nn.MSELoss()

    def meta_train(self, tasks):
        model_loss = 0
        for (xs, ys, xq, yq) in tasks:
            maml_model = copy.deepcopy(self.model)
            inner = torch.optim.Adam(maml_model.parameters(), lr=self.update_lr)
            for _ in range(self.update_step):
                inner.zero_grad()
                self.loss(maml_model(xs), ys).backward()
                inner.step()
            self.model = copy.deepcopy(maml_model)
            model_loss = model_loss + self.loss(self.model(xq), yq)
        model_loss = model_loss / len(tasks)
        self.meta_optim.zero_grad()
        model_loss.backward()
        self.meta_optim.step()
        return model_loss.item()


class FunctionalMeta(nn.Module):
    """Intended MAML step: fast weights stay functions of the meta-parameters."""

    def __init__(self, update_lr=0.05, meta_lr=0.01, update_step=3):
        super().__init__()
        self.model = Forecaster()
        self.update_lr, self.update_step = update_lr, update_step
        self.meta_optim = torch.optim.Adam(self.model.parameters(), lr=meta_lr)
        self.loss = nn.MSELoss()

    def meta_train(self, tasks):
        model_loss = 0
        for (xs, ys, xq, yq) in tasks:
            fast = dict(self.model.named_parameters())
            for _ in range(self.update_step):
                l = self.loss(functional_call(self.model, fast, (xs,)), ys)
                grads = torch.autograd.grad(l, list(fast.values()), create_graph=True)
                fast = {k: w - self.update_lr * g for (k, w), g in zip(fast.items(), grads)}
            model_loss = model_loss + self.loss(functional_call(self.model, fast, (xq,)), yq)
        model_loss = model_loss / len(tasks)
        self.meta_optim.zero_grad()
        model_loss.backward()
        self.meta_optim.step()
        return model_loss.item()
