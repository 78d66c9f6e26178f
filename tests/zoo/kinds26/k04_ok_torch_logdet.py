"""
expect: none
dynamic: dismiss
source: kinds check 26, kind 2

The same tiny normalizing flow, with each layer's log-determinant taken by
torch.linalg.slogdet on the live weight. The -logdet term of the NLL stays in
the graph and changes the weight gradients.
"""
import math

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
        logdet = torch.linalg.slogdet(self.weight)[1]
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
assert logdet.requires_grad
nll(z, logdet).backward()
grad_with_term = [l.weight.grad.clone() for l in flow.layers]

flow.zero_grad()
z, _ = flow(data)
nll(z, torch.zeros(())).backward()
for a, l in zip(grad_with_term, flow.layers):
    assert not torch.allclose(a, l.weight.grad, atol=1e-4)
print("ok: torch log-det trains the weights")
