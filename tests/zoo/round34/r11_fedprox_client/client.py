import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class LocalUpdate:
    """One federated client: trains a copy of the global model on its own shard."""

    def __init__(self, data, labels, mu=0.0, lr=0.1, local_steps=5):
        self.data = data
        self.labels = labels
        self.mu = mu
        self.lr = lr
        self.local_steps = local_steps

    def proximal_term(self, local_net, global_net):
        total = 0.0
        for w, w_t in zip(local_net.parameters(), global_net.parameters()):
            total = total + torch.norm(w.data - w_t.data) ** 2
        return self.mu / 2.0 * total

    def train(self, global_net):
        local_net = copy.deepcopy(global_net)
        opt = torch.optim.SGD(local_net.parameters(), lr=self.lr)
        for _ in range(self.local_steps):
            opt.zero_grad()
            loss = F.cross_entropy(local_net(self.data), self.labels)
            loss = loss + self.proximal_term(local_net, global_net)
            loss.backward()
            opt.step()
        return local_net.state_dict()


def average(states):
    out = copy.deepcopy(states[0])
    for k in out:
        out[k] = torch.stack([s[k] for s in states]).mean(0)
    return out


def make_net():
    return nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3))
