"""A toy DARTS search space on vectors: one cell, two edges, four candidate ops."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Zero(nn.Module):
    def forward(self, x):
        return x * 0.0


def candidate_ops(c):
    return nn.ModuleList([
        nn.Identity(),
        nn.Sequential(nn.Linear(c, c), nn.Tanh()),
        nn.Sequential(nn.Linear(c, c), nn.ReLU()),
        Zero(),
    ])


class MixedOp(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ops = candidate_ops(c)

    def forward(self, x, weights):
        return sum(w * op(x) for w, op in zip(weights, self.ops))


class Network(nn.Module):
    def __init__(self, n_in=5, c=8, n_class=3):
        super().__init__()
        self.n_in, self.c, self.n_class = n_in, c, n_class
        self.stem = nn.Linear(n_in, c)
        self.edges = nn.ModuleList([MixedOp(c), MixedOp(c)])
        self.classifier = nn.Linear(c, n_class)
        self.alpha_normal = nn.Parameter(1e-3 * torch.randn(2, 4))

    def weights(self):
        return [p for n, p in self.named_parameters() if not n.startswith("alpha")]

    def arch_parameters(self):
        return [self.alpha_normal]

    def new(self):
        model_new = Network(self.n_in, self.c, self.n_class)
        model_new.alpha_normal.data.copy_(self.alpha_normal.data)
        return model_new

    def forward(self, x):
        w = F.softmax(self.alpha_normal, dim=-1)
        h = torch.tanh(self.stem(x))
        h = self.edges[0](h, w[0]) + self.edges[1](h, w[1])
        return self.classifier(h)

    def loss(self, x, y):
        return F.cross_entropy(self(x), y)
