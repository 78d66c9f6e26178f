"""A first-order meta-learner for few-shot sine-curve regression."""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class SineNet(nn.Module):
    def __init__(self, width=40):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(1, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU(),
                                    nn.Linear(width, 1))

    def forward(self, x):
        return self.layers(x)


class FirstOrderLearner:
    def __init__(self, net, outer_lr=1e-2, inner_lr=5e-2, inner_steps=3):
        self.net = net
        self.outer_opt = torch.optim.Adam(self.net.parameters(), lr=outer_lr)
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps

    def adapt(self, xs, ys):
        adapted = copy.deepcopy(self.net)
        inner_opt = torch.optim.SGD(adapted.parameters(), lr=self.inner_lr)
        for _ in range(self.inner_steps):
            inner_opt.zero_grad()
            F.mse_loss(adapted(xs), ys).backward()
            inner_opt.step()
        return adapted

    def meta_step(self, support, query):
        adapted = self.adapt(*support)
        self.net = copy.deepcopy(adapted)
        xq, yq = query
        loss = F.mse_loss(self.net(xq), yq)
        self.outer_opt.zero_grad()
        loss.backward()
        self.outer_opt.step()
        return loss.item()
