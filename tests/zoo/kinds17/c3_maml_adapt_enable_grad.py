"""
expect: none
dynamic: dismiss
source: kind C

A meta-learning evaluation loop scores a regressor on new tasks after one
inner adaptation step.  ``meta_test`` runs under ``with torch.no_grad():`` and
reaches ``adapt`` through ``score_task``.  ``adapt`` wraps its forward pass
and ``torch.autograd.grad`` call in ``with torch.enable_grad():``, which
re-enables recording inside no_grad, so the adaptation works and lowers the
query loss.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SineNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(1, 32)
        self.l2 = nn.Linear(32, 1)

    def functional(self, x, params):
        w1, b1, w2, b2 = params
        return F.linear(torch.relu(F.linear(x, w1, b1)), w2, b2)


def adapt(model, xs, ys, lr=0.05, steps=5):
    params = [p for p in model.parameters()]
    for _ in range(steps):
        with torch.enable_grad():
            loss = F.mse_loss(model.functional(xs, params), ys)
            grads = torch.autograd.grad(loss, params)
        params = [(p - lr * g).detach().requires_grad_(True) for p, g in zip(params, grads)]
    return params


def score_task(model, task):
    xs, ys, xq, yq = task
    before = F.mse_loss(model.functional(xq, list(model.parameters())), yq).item()
    fast = adapt(model, xs, ys)
    after = F.mse_loss(model.functional(xq, fast), yq).item()
    return before, after


def meta_test(model, tasks):
    results = []
    with torch.no_grad():
        for task in tasks:
            results.append(score_task(model, task))
    return results


def make_task(amp, phase):
    xs = torch.rand(20, 1) * 6 - 3
    xq = torch.rand(20, 1) * 6 - 3
    return xs, amp * torch.sin(xs + phase), xq, amp * torch.sin(xq + phase)


def main():
    torch.manual_seed(8)
    model = SineNet()
    tasks = [make_task(1.0 + 0.5 * i, 0.3 * i) for i in range(3)]
    results = meta_test(model, tasks)
    for before, after in results:
        assert after < before, (before, after)
    print("adapted:", results)


if __name__ == "__main__":
    main()
