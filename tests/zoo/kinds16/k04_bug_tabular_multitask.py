"""
expect: GL004 43
dynamic: confirm
source: kind 4

A multi-task tabular trainer backpropagates each task loss separately with
retain_graph=True (shared trunk) inside train_step, and at the end of the
method rebuilds self.loss_ema from its previous value and the attached task
losses. The EMA keeps every step's graph alive, so the graph hanging off it
grows with every call. The asserts count the autograd nodes reachable from
self.loss_ema.grad_fn via next_functions and show the count grows each call.
"""
import torch
import torch.nn as nn


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return len(seen)


class MultiTaskTrainer:
    def __init__(self, n_features=12, hidden=32, n_tasks=3):
        self.trunk = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU())
        self.heads = nn.ModuleList(nn.Linear(hidden, 1) for _ in range(n_tasks))
        params = [*self.trunk.parameters(), *self.heads.parameters()]
        self.opt = torch.optim.SGD(params, lr=1e-2)
        self.loss_ema = torch.zeros(n_tasks)

    def train_step(self, x, targets):
        self.opt.zero_grad()
        shared = self.trunk(x)
        losses = [nn.functional.mse_loss(h(shared).squeeze(-1), targets[:, k])
                  for k, h in enumerate(self.heads)]
        weights = (1.0 / (self.loss_ema + 1e-3)).tolist()
        for w, loss in zip(weights, losses):
            (min(w, 10.0) * loss).backward(retain_graph=True)
        self.opt.step()
        self.loss_ema = 0.9 * self.loss_ema + 0.1 * torch.stack(losses)


if __name__ == "__main__":
    torch.manual_seed(5)
    trainer = MultiTaskTrainer()
    x = torch.randn(256, 12)
    targets = torch.stack([x[:, 0], x[:, 1] * x[:, 2], x[:, 3].abs()], dim=1)
    sizes = []
    for _ in range(6):
        trainer.train_step(x, targets)
        sizes.append(graph_size(trainer.loss_ema))
    assert trainer.loss_ema.requires_grad
    assert all(b > a for a, b in zip(sizes, sizes[1:])), sizes
    assert sizes[-1] > 3 * sizes[0], sizes
    print("ok: loss_ema graph grows every call:", sizes)
