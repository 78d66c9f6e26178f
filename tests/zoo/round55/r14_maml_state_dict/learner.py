"""Task adaptation for a MAML regressor: copy the meta-network, take a few support steps, score the query set."""
import copy

import torch
import torch.nn.functional as F
from torch.func import functional_call


class Adapter:
    def __init__(self, meta_net, inner_lr=0.05, inner_steps=2):
        self.meta_net = meta_net
        self.fast_net = copy.deepcopy(meta_net)
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps

    def query_loss(self, x_s, y_s, x_q, y_q):
        self.fast_net.load_state_dict(self.meta_net.state_dict())
        for _ in range(self.inner_steps):
            loss = F.mse_loss(self.fast_net(x_s), y_s)
            grads = torch.autograd.grad(loss, list(self.fast_net.parameters()), create_graph=True)
            with torch.no_grad():
                for p, g in zip(self.fast_net.parameters(), grads):
                    p -= self.inner_lr * g
        return F.mse_loss(self.fast_net(x_q), y_q)


class FunctionalAdapter:
    """The intended version: fast weights are expressions of the meta-parameters."""

    def __init__(self, meta_net, inner_lr=0.05, inner_steps=2):
        self.meta_net = meta_net
        self.inner_lr = inner_lr
        self.inner_steps = inner_steps

    def query_loss(self, x_s, y_s, x_q, y_q):
        weights = dict(self.meta_net.named_parameters())
        for _ in range(self.inner_steps):
            loss = F.mse_loss(functional_call(self.meta_net, weights, (x_s,)), y_s)
            grads = torch.autograd.grad(loss, list(weights.values()), create_graph=True)
            weights = {k: w - self.inner_lr * g for (k, w), g in zip(weights.items(), grads)}
        return F.mse_loss(functional_call(self.meta_net, weights, (x_q,)), y_q)
