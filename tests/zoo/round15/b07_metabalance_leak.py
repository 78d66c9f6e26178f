"""
expect: GL004 60
dynamic: confirm
source: https://github.com/facebookresearch/MetaBalance/issues/2

The reporter saw CUDA memory grow every iteration until the run crashed when using MetaBalance-style
auxiliary-loss balancing, and suspected the per-task `loss.backward(retain_graph=True)` calls. This
program rebuilds a multi-task trainer whose balancer backpropagates each task loss separately with
`retain_graph=True` and also keeps a running average of the task losses that is updated with the
live loss tensors. Because the running average holds on to every earlier step's graph and the
retained buffers are never released, the autograd graph reachable from the balancer's state grows
by a fixed number of nodes each step; with the running average fed detached values it stays empty.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def graph_size(t):
    if t is None or t.grad_fn is None:
        return 0
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


class SharedTrunkModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(10, 32), nn.ReLU())
        self.main_head = nn.Linear(32, 1)
        self.aux_head = nn.Linear(32, 1)

    def forward(self, x):
        h = self.trunk(x)
        return self.main_head(h), self.aux_head(h)


class AuxLossBalancer:
    """Scales the auxiliary gradient relative to the main-task gradient, parameter by parameter."""

    def __init__(self, params, beta=0.9, detach_stats=False):
        self.params = list(params)
        self.beta = beta
        self.detach_stats = detach_stats
        self.loss_avg = None

    def backward(self, task_losses):
        per_task = []
        for loss in task_losses:
            for p in self.params:
                p.grad = None
            loss.backward(retain_graph=True)
            per_task.append([torch.zeros_like(p) if p.grad is None else p.grad.clone() for p in self.params])
        stacked = torch.stack([l.detach() if self.detach_stats else l for l in task_losses])
        self.loss_avg = stacked if self.loss_avg is None else self.beta * self.loss_avg + (1 - self.beta) * stacked
        for p, g_main, g_aux in zip(self.params, per_task[0], per_task[1]):
            scale = (g_main.norm() / (g_aux.norm() + 1e-12)).clamp(max=1.0) if g_main.norm() > 0 else 1.0
            p.grad = g_main + scale * g_aux


def run(detach_stats, steps=6):
    model = SharedTrunkModel()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    balancer = AuxLossBalancer(model.parameters(), detach_stats=detach_stats)
    sizes = []
    for _ in range(steps):
        x = torch.randn(16, 10)
        y_main, y_aux = torch.randn(16, 1), torch.randn(16, 1)
        opt.zero_grad()
        pred_main, pred_aux = model(x)
        losses = [F.mse_loss(pred_main, y_main), F.mse_loss(pred_aux, y_aux)]
        balancer.backward(losses)
        opt.step()
        sizes.append(graph_size(balancer.loss_avg))
    return sizes


leaky = run(detach_stats=False)
growth = [b - a for a, b in zip(leaky, leaky[1:])]
assert all(g > 0 for g in growth), leaky
assert len(set(growth)) == 1, "same number of nodes kept alive every step"
assert leaky[-1] > 5 * leaky[0]

clean = run(detach_stats=True)
assert all(s == 0 for s in clean), clean
print("ok: retained graphs pile up in the balancer state:", leaky)
