"""
expect: GL002 27
dynamic: confirm
source: kinds check 26, kind 2

A tiny normalizing flow: each invertible linear layer returns (z, logdet),
but the log-determinant is taken in NumPy from the detached weight and copied
back with torch.tensor. The -logdet term in the NLL therefore sends no
gradient to the weights; only the Gaussian prior term trains them.
"""
import math

import numpy as np
import torch
import torch.nn as nn


class InvertibleLinear(nn.Module):
    def __init__(self, dim):
        super().__init__()
        q, _ = torch.linalg.qr(torch.randn(dim, dim))
        self.weight = nn.Parameter(q + 0.1 * torch.randn(dim, dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        z = x @ self.weight.T + self.bias
        logdet = torch.tensor(np.linalg.slogdet(self.weight.detach().numpy())[1], dtype=torch.float32)
        return z, logdet


class Flow(nn.Module):
    def __init__(self, dim, depth=2):
        super().__init__()
        self.layers = nn.ModuleList([InvertibleLinear(dim) for _ in range(depth)])

    def forward(self, x):
        total = x.new_zeros(())
        for layer in self.layers:
            x, logdet = layer(x)
            total = total + logdet
        return x, total


def nll(z, logdet):
    prior = 0.5 * (z ** 2).sum(dim=1) + 0.5 * z.shape[1] * math.log(2 * math.pi)
    return prior.mean() - logdet


torch.manual_seed(0)
flow = Flow(dim=4)
data = torch.randn(32, 4) * torch.tensor([2.0, 0.5, 1.0, 3.0])

z, logdet = flow(data)
assert not logdet.requires_grad
nll(z, logdet).backward()
grad_with_term = [l.weight.grad.clone() for l in flow.layers]

# Same loss without the log-det term: identical gradients, so the term is dead.
flow.zero_grad()
z, _ = flow(data)
nll(z, torch.zeros(())).backward()
grad_without_term = [l.weight.grad.clone() for l in flow.layers]
for a, b in zip(grad_with_term, grad_without_term):
    assert torch.allclose(a, b)

# The torch log-det would have contributed a real gradient.
flow.zero_grad()
z, _ = flow(data)
true_logdet = sum(torch.linalg.slogdet(l.weight)[1] for l in flow.layers)
nll(z, true_logdet).backward()
for a, l in zip(grad_with_term, flow.layers):
    assert not torch.allclose(a, l.weight.grad, atol=1e-4)
print("ok: numpy log-det carries no gradient")
