"""expect: GL002 20
dynamic: confirm
source: https://github.com/huggingface/torchMoji/issues/21

A plain (non-Module) fine-tuning helper wraps the loss it returns as `Variable(loss, requires_grad=True)`, the workaround from the linked issue. In current PyTorch that builds a new leaf holding the loss's value, cut from the graph, so backward stops there: the optimizer's parameters never get a gradient, and the loss never goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


class FineTuner:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.opt = torch.optim.Adam(model.parameters(), lr=lr)

    def compute_loss(self, x, y):
        loss = F.cross_entropy(self.model(x), y)
        return Variable(loss, requires_grad=True)

    def step(self, x, y):
        loss = self.compute_loss(x, y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 2))
tuner = FineTuner(model)
x, y = torch.randn(32, 10), torch.randint(0, 2, (32,))
losses = [tuner.step(x, y) for _ in range(5)]
print("losses:", [round(v, 4) for v in losses])
print("model grad:", model[0].weight.grad)
