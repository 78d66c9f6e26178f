"""
expect: GL001 ewc_plugin.py:7
dynamic: confirm
source: https://github.com/ContinualAI/avalanche/issues/1099

Continual learning with EWC as a plugin. After each experience the plugin stores the
parameters with `p.data.clone()` and a diagonal Fisher. In the penalty loop the line meant
to slice the live parameter instead slices the stored copy, so the quadratic term is built
only from detached snapshots: it is always 0, carries no grad_fn, and adding it to the loss
changes nothing. EWC silently turns into plain fine-tuning. The asserts show the penalty
has no gradient path, that the gradient of task loss + penalty equals the task-loss
gradient alone, and that the model forgets task A; the fixed variant (slice the current
parameter) yields a non-zero penalty gradient and keeps task-A loss much lower.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from ewc_plugin import EWCPlugin

torch.manual_seed(0)
torch.set_num_threads(1)


def make_task(seed, shift):
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(128, 10, generator=g) + shift
    w = torch.randn(10, 3, generator=g)
    return x, (x @ w).argmax(1)


task_a, task_b = make_task(1, 0.0), make_task(2, 1.0)


def run(fixed):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3))
    plugin = EWCPlugin(ewc_lambda=500.0, fixed=fixed)
    for exp_counter, (x, y) in enumerate([task_a, task_b]):
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for it in range(200):
            opt.zero_grad()
            task_loss = F.cross_entropy(model(x), y)
            loss = task_loss
            if exp_counter > 0:
                pen = plugin.penalty(model, exp_counter)
                if it == 5:
                    g_total = torch.autograd.grad(task_loss + pen, model[0].weight,
                                                  retain_graph=True, allow_unused=True)[0]
                    g_task = torch.autograd.grad(task_loss, model[0].weight,
                                                 retain_graph=True)[0]
                    if not fixed:
                        assert pen.grad_fn is None and not pen.requires_grad
                        assert pen.item() == 0.0
                        assert torch.equal(g_total, g_task)
                    else:
                        assert pen.requires_grad and pen.item() > 0
                        assert not torch.allclose(g_total, g_task)
                loss = task_loss + pen
            loss.backward()
            opt.step()
        plugin.after_training_exp(model, exp_counter, x, y)
    with torch.no_grad():
        return F.cross_entropy(model(task_a[0]), task_a[1]).item()


forget_bug = run(fixed=False)   # default path: the buggy plugin
forget_fix = run(fixed=True)
print(f"task-A loss after task B: buggy EWC {forget_bug:.3f}, fixed EWC {forget_fix:.3f}")
assert forget_fix < 0.7 * forget_bug
