import copy

import torch
import torch.nn as nn


def sgd_step(params, grads, lr):
    """Functional-optimizer style update, like torch's functional sgd."""
    with torch.no_grad():
        for p, g in zip(params, grads):
            p.add_(g, alpha=-lr)


class MetaLearner:
    """Holds the slow (meta) weights and adapts a copy of them per task."""

    def __init__(self, model, inner_lr=0.1, outer_lr=1e-2):
        self.model = model
        self.inner_lr = inner_lr
        self.criterion = nn.MSELoss()
        self.meta_opt = torch.optim.Adam(self.model.parameters(), lr=outer_lr)

    def inner_update(self, support_x, support_y, steps=1):
        fast = copy.deepcopy(self.model)
        for _ in range(steps):
            loss = self.criterion(fast(support_x), support_y)
            grads = torch.autograd.grad(loss, fast.parameters(), create_graph=True)
            sgd_step(list(fast.parameters()), grads, self.inner_lr)
        return fast

    def meta_train_step(self, tasks):
        self.meta_opt.zero_grad()
        meta_loss = 0.0
        for sx, sy, qx, qy in tasks:
            fast = self.inner_update(sx, sy)
            meta_loss = meta_loss + self.criterion(fast(qx), qy)
        meta_loss.backward()
        self.meta_opt.step()
        return meta_loss


def functional_meta_grad(model, tasks, inner_lr):
    """Reference: inner step kept in the graph (plain MAML, one step)."""
    crit = nn.MSELoss()
    params = list(model.parameters())
    total = 0.0
    for sx, sy, qx, qy in tasks:
        loss = crit(torch.func.functional_call(model, dict(zip([n for n, _ in model.named_parameters()], params)), (sx,)), sy)
        grads = torch.autograd.grad(loss, params, create_graph=True)
        fast = [p - inner_lr * g for p, g in zip(params, grads)]
        names = [n for n, _ in model.named_parameters()]
        out = torch.func.functional_call(model, dict(zip(names, fast)), (qx,))
        total = total + crit(out, qy)
    return torch.autograd.grad(total, params)
