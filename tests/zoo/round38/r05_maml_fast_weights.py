"""
expect: none
dynamic: dismiss
source: https://github.com/oscarknagg/few-shot/issues/9

few-shot issue: a reader thought meta_batch_loss.backward() could not reach the model's
parameters because every query loss is computed with fast_weights, not with the model; the
maintainer answered that the fast weights are built from the parameters with create_graph=True,
so autograd differentiates through the inner updates (he even tests for the double-backward
node). This learner does the same: functional forward with a weight dict, inner SGD steps via
autograd.grad(create_graph=True), outer Adam on the sum of query losses. The asserts show the
slow parameters get non-zero meta-gradients that differ from the first-order ones.
"""
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Learner(nn.Module):
    def __init__(self, d=8, ways=3):
        super().__init__()
        self.fc1 = nn.Linear(d, 16)
        self.head = nn.Linear(16, ways)

    def functional_forward(self, x, w):
        h = F.relu(F.linear(x, w["fc1.weight"], w["fc1.bias"]))
        return F.linear(h, w["head.weight"], w["head.bias"])


def adapt(model, xs, ys, steps=2, lr=0.4, second_order=True):
    fast = OrderedDict(model.named_parameters())
    for _ in range(steps):
        loss = F.cross_entropy(model.functional_forward(xs, fast), ys)
        grads = torch.autograd.grad(loss, fast.values(), create_graph=second_order)
        fast = OrderedDict((k, w - lr * g) for (k, w), g in zip(fast.items(), grads))
    return fast


def meta_step(model, tasks, second_order=True):
    model.zero_grad()
    meta_loss = 0.0
    for xs, ys, xq, yq in tasks:
        fast = adapt(model, xs, ys, second_order=second_order)
        meta_loss = meta_loss + F.cross_entropy(model.functional_forward(xq, fast), yq)
    (meta_loss / len(tasks)).backward()
    return {k: p.grad.clone() for k, p in model.named_parameters()}


def sample_task():
    protos = torch.randn(3, 8)
    ys, yq = torch.arange(3).repeat(2), torch.arange(3).repeat(3)
    return protos[ys] + 0.3 * torch.randn(6, 8), ys, protos[yq] + 0.3 * torch.randn(9, 8), yq


model = Learner()
tasks = [sample_task() for _ in range(4)]
g2 = meta_step(model, tasks, second_order=True)
g1 = meta_step(model, tasks, second_order=False)
assert all(g.abs().sum() > 0 for g in g2.values())
assert not torch.allclose(g2["fc1.weight"], g1["fc1.weight"])

opt = torch.optim.Adam(model.parameters(), lr=1e-2)
before = model.fc1.weight.detach().clone()
meta_step(model, tasks)
opt.step()
assert not torch.equal(before, model.fc1.weight)
print("ok")
