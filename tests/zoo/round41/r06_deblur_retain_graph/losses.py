"""Relativistic least-squares GAN loss with pools of past discriminator scores."""
from collections import deque

import torch


class ScorePool:
    def __init__(self, pool_size=50):
        self.pool_size = pool_size
        self.items = deque()

    def add(self, scores):
        for s in scores.data:
            self.items.append(s.unsqueeze(0))
            if len(self.items) > self.pool_size:
                self.items.popleft()

    def query(self):
        return torch.cat(list(self.items), 0)


class RelativisticDiscLossLS:
    def __init__(self):
        self.fake_pool = ScorePool(50)
        self.real_pool = ScorePool(50)

    def get_g_loss(self, net, fake_b, real_b):
        self.pred_fake = net(fake_b)
        self.pred_real = net(real_b)
        return (torch.mean((self.pred_real - torch.mean(self.fake_pool.query()) + 1) ** 2)
                + torch.mean((self.pred_fake - torch.mean(self.real_pool.query()) - 1) ** 2)) / 2

    def get_loss(self, net, fake_b, real_b):
        self.pred_fake = net(fake_b.detach())
        self.fake_pool.add(self.pred_fake)
        self.pred_real = net(real_b)
        self.real_pool.add(self.pred_real)
        self.loss_D = (torch.mean((self.pred_real - torch.mean(self.fake_pool.query()) - 1) ** 2)
                       + torch.mean((self.pred_fake - torch.mean(self.real_pool.query()) + 1) ** 2)) / 2
        return self.loss_D

    def __call__(self, net, fake_b, real_b):
        return self.get_loss(net, fake_b, real_b)
