"""
expect: GL001 43
dynamic: confirm
source: none, invented

A physics-informed network for the 1-D Poisson problem u''(x) = -pi^2 sin(pi x) on [0, 1] with
u(0) = u(1) = 0.  To take second derivatives with respect to the collocation points the author wrote
a small functional forward, `mlp_apply(weights, x)`, and `PoissonPINN.weights` hands it
`[p.data for p in self.net.parameters()]`.  `.data` hands back tensors that are not connected to the
parameters, so the residual and boundary losses (which still require grad through the collocation
points) back-propagate into nothing: every parameter's `.grad` stays None and the optimizer never
moves the network.  The asserts show that, and that passing the parameters themselves makes the
residual loss drop by more than an order of magnitude.
"""
import math

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


def mlp_apply(weights, x):
    h = x
    pairs = list(zip(weights[0::2], weights[1::2]))
    for i, (w, b) in enumerate(pairs):
        h = h @ w.T + b
        if i < len(pairs) - 1:
            h = torch.tanh(h)
    return h


class PoissonPINN:
    def __init__(self, width=24, legacy=True):
        self.net = nn.Sequential(
            nn.Linear(1, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(), nn.Linear(width, 1)
        )
        self.legacy = legacy

    def weights(self):
        if self.legacy:
            return [p.data for p in self.net.parameters()]
        return list(self.net.parameters())

    def loss(self, n_points=64):
        x = torch.rand(n_points, 1, requires_grad=True)
        w = self.weights()
        u = mlp_apply(w, x)
        du = torch.autograd.grad(u.sum(), x, create_graph=True)[0]
        d2u = torch.autograd.grad(du.sum(), x, create_graph=True)[0]
        residual = d2u + math.pi ** 2 * torch.sin(math.pi * x)
        boundary = mlp_apply(w, torch.tensor([[0.0], [1.0]]))
        return residual.pow(2).mean() + 10.0 * boundary.pow(2).mean()

    def fit(self, steps=400):
        opt = torch.optim.Adam(self.net.parameters(), lr=3e-3)
        first = None
        for step in range(steps):
            loss = self.loss()
            opt.zero_grad()
            loss.backward()
            opt.step()
            first = loss.item() if first is None else first
        return first, loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    pinn = PoissonPINN(legacy=True)
    start = {k: v.clone() for k, v in pinn.net.state_dict().items()}
    pinn.fit(steps=20)
    assert all(p.grad is None for p in pinn.net.parameters())
    assert all(torch.equal(start[k], v) for k, v in pinn.net.state_dict().items())

    torch.manual_seed(0)
    pinn = PoissonPINN(legacy=False)
    first, last = pinn.fit()
    assert all(p.grad is not None for p in pinn.net.parameters())
    assert last < first / 10, (first, last)
    print(f"k10: .data weights leave the PINN untrained; live weights: loss {first:.2f} -> {last:.4f}")
