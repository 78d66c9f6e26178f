"""
expect: GL001 43
dynamic: confirm
source: kinds check 10, kind 7

Body-only MAML on sine-wave regression: the inner loop adapts the hidden
layer with fast weights, and the author keeps the output layer out of the
inner loop by passing `model.out.weight.data` into F.linear. That also cuts it
out of the outer (meta) loss, so out.weight never gets a meta-gradient and
stays at its initial value while the body and out.bias train.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SineRegressor(nn.Module):
    def __init__(self, hidden=40):
        super().__init__()
        self.hidden = nn.Linear(1, hidden)
        self.out = nn.Linear(hidden, 1)


def functional_forward(x, params):
    h = F.relu(F.linear(x, params["hidden.weight"], params["hidden.bias"]))
    return F.linear(h, params["out.weight"], params["out.bias"])


def sample_task(n_support=10, n_query=10):
    amp = 0.1 + 4.9 * torch.rand(1)
    phase = math.pi * torch.rand(1)
    xs = 10 * torch.rand(n_support + n_query, 1) - 5
    ys = amp * torch.sin(xs + phase)
    return (xs[:n_support], ys[:n_support]), (xs[n_support:], ys[n_support:])


def adapt(model, x_support, y_support, inner_lr=0.01, steps=2):
    body = {"hidden.weight": model.hidden.weight, "hidden.bias": model.hidden.bias}
    head = {"out.weight": model.out.weight.data, "out.bias": model.out.bias}
    for _ in range(steps):
        pred = functional_forward(x_support, {**body, **head})
        inner_loss = F.mse_loss(pred, y_support)
        grads = torch.autograd.grad(inner_loss, list(body.values()), create_graph=True)
        body = {name: w - inner_lr * g for (name, w), g in zip(body.items(), grads)}
    return {**body, **head}


def main():
    model = SineRegressor()
    meta_opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}

    for _ in range(3):
        meta_opt.zero_grad()
        meta_loss = 0.0
        for _ in range(4):
            (xs, ys), (xq, yq) = sample_task()
            fast = adapt(model, xs, ys)
            meta_loss = meta_loss + F.mse_loss(functional_forward(xq, fast), yq)
        (meta_loss / 4).backward()
        meta_opt.step()

    assert model.out.weight.grad is None
    assert torch.equal(model.out.weight, before["out.weight"])
    for name in ("hidden.weight", "hidden.bias", "out.bias"):
        p = dict(model.named_parameters())[name]
        assert p.grad is not None and not torch.equal(p, before[name]), name
    print("OK")


if __name__ == "__main__":
    main()
