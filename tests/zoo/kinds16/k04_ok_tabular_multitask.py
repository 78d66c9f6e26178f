"""
expect: none
dynamic: dismiss
source: kind 4

A credit-risk multi-task trainer backpropagates each task loss separately
with retain_graph=True (shared trunk) inside train_step and, at the end of the
method, rebuilds self.loss_ema from its previous value and the DETACHED task
losses. Nothing is carried between calls. The asserts show loss_ema has no
graph, the reachable-node count stays zero, and all tasks train.
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


class CreditRiskTrainer:
    def __init__(self, n_features=10, hidden=32, n_tasks=3):
        self.trunk = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU())
        self.heads = nn.ModuleList(nn.Linear(hidden, 1) for _ in range(n_tasks))
        params = [*self.trunk.parameters(), *self.heads.parameters()]
        self.opt = torch.optim.Adam(params, lr=1e-2)
        self.loss_ema = torch.ones(n_tasks)

    def train_step(self, x, targets):
        self.opt.zero_grad()
        shared = self.trunk(x)
        losses = [nn.functional.mse_loss(h(shared).squeeze(-1), targets[:, k])
                  for k, h in enumerate(self.heads)]
        weights = (1.0 / (self.loss_ema + 1e-3)).clamp(max=10.0)
        for w, loss in zip(weights, losses):
            (w * loss).backward(retain_graph=True)
        self.opt.step()
        self.loss_ema = 0.9 * self.loss_ema + 0.1 * torch.stack(losses).detach()


if __name__ == "__main__":
    torch.manual_seed(6)
    trainer = CreditRiskTrainer()
    x = torch.randn(256, 10)
    targets = torch.stack([x[:, 0] - x[:, 1], x[:, 2] * 0.5, x[:, 3] + 1], dim=1)
    sizes = []
    for _ in range(150):
        trainer.train_step(x, targets)
        sizes.append(graph_size(trainer.loss_ema))
    assert not trainer.loss_ema.requires_grad
    assert set(sizes) == {0}, set(sizes)
    assert (trainer.loss_ema < 0.2).all(), trainer.loss_ema
    print("ok: detached EMA, graph does not grow, tasks train:", trainer.loss_ema)
