"""
expect: GL002 losses.py:14
dynamic: confirm
source: https://github.com/ngailapdi/LWF/issues/8

Learning without Forgetting for a class-incremental classifier: when a new class
arrives, a frozen copy of the previous network gives soft targets for the old
classes, and the training loss is cross-entropy on the labels plus a distillation
term that keeps the old-class outputs close to the copy's. The distillation helper
in losses.py computes the right number but returns it as Variable(value.data,
requires_grad=True), a fresh leaf rebuilt from the value, so the term reaches
backward() without any edge to the network. (The teacher targets are taken from
.data on purpose; they come from the frozen copy.) The asserts show that the
distilled loss is a leaf with no grad_fn, that the gradient of cls+distill equals
the gradient of cls alone, that two training runs with and without the term end
in identical weights, and that the attached version of the same loss changes the
gradient and keeps the old-class outputs closer to the teacher.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from losses import soft_target_cross_entropy, soft_target_cross_entropy_fixed

torch.manual_seed(0)
torch.set_num_threads(1)


class IncrementalNet(nn.Module):
    def __init__(self, in_dim=12, hidden=32, n_classes=3):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(in_dim, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.fc = nn.Linear(hidden, n_classes, bias=False)

    def add_classes(self, n_new):
        old = self.fc
        self.fc = nn.Linear(old.in_features, old.out_features + n_new, bias=False)
        with torch.no_grad():
            self.fc.weight[: old.out_features] = old.weight

    def forward(self, x):
        return self.fc(self.features(x))


def make_task(n, in_dim, classes):
    x = torch.randn(n, in_dim)
    y = torch.tensor(classes)[torch.randint(0, len(classes), (n,))]
    x = x + 0.8 * F.one_hot(y, in_dim).float()
    return x, y


def train_old_task(net, steps=150):
    x, y = make_task(256, 12, [0, 1, 2])
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    for _ in range(steps):
        opt.zero_grad()
        F.cross_entropy(net(x), y).backward()
        opt.step()


class LwFTrainer:
    def __init__(self, net, distill_fn, temperature=2.0, lr=0.05):
        self.net = net
        self.prev = copy.deepcopy(net)
        self.prev.eval()
        self.n_old = net.fc.out_features
        self.net.add_classes(1)
        self.distill_fn = distill_fn
        self.temperature = temperature
        self.opt = torch.optim.SGD(self.net.parameters(), lr=lr)

    def losses(self, x, y):
        logits = self.net(x)
        with torch.no_grad():
            old_logits = self.prev(x)
        cls = F.cross_entropy(logits, y)
        dist = self.distill_fn(logits[:, : self.n_old], old_logits, self.temperature)
        return cls, dist

    def step(self, x, y, weight=1.0):
        cls, dist = self.losses(x, y)
        loss = cls + weight * dist
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return cls.item(), dist.item()


def grads_of(net, loss):
    net.zero_grad()
    loss.backward(retain_graph=True)
    return [p.grad.clone() for p in net.parameters()]


base = IncrementalNet()
train_old_task(base)
x_new, y_new = make_task(128, 12, [3])
x_old, _ = make_task(128, 12, [0, 1, 2])

# 1) the distillation term arrives as a detached leaf
trainer = LwFTrainer(copy.deepcopy(base), soft_target_cross_entropy)
cls, dist = trainer.losses(x_new, y_new)
assert dist.grad_fn is None and dist.is_leaf and dist.requires_grad
assert dist.item() > 0.0

# 2) adding it changes nothing in the gradient
g_cls = grads_of(trainer.net, cls)
g_sum = grads_of(trainer.net, cls + 5.0 * dist)
assert all(torch.equal(a, b) for a, b in zip(g_cls, g_sum))

# 3) the attached version of the same number does change the gradient (once the
#    new model has moved away from the copy, the distillation gradient is non-zero)
fixed = LwFTrainer(copy.deepcopy(base), soft_target_cross_entropy_fixed)
cls_b, dist_b = fixed.losses(x_new, y_new)
assert torch.allclose(dist_b.detach(), dist.detach(), atol=1e-6)
for _ in range(5):
    fixed.step(x_new, y_new, weight=0.0)
cls_f, dist_f = fixed.losses(x_new, y_new)
g_cls_f = grads_of(fixed.net, cls_f)
g_sum_f = grads_of(fixed.net, cls_f + 5.0 * dist_f)
assert any(not torch.allclose(a, b) for a, b in zip(g_cls_f, g_sum_f))

# 4) training: with the buggy term, the weights are exactly those of plain fine-tuning
torch.manual_seed(1)
buggy = LwFTrainer(copy.deepcopy(base), soft_target_cross_entropy)
torch.manual_seed(1)
plain = LwFTrainer(copy.deepcopy(base), soft_target_cross_entropy)
torch.manual_seed(1)
good = LwFTrainer(copy.deepcopy(base), soft_target_cross_entropy_fixed)
for _ in range(60):
    buggy.step(x_new, y_new, weight=5.0)
    plain.step(x_new, y_new, weight=0.0)
    good.step(x_new, y_new, weight=5.0)
for a, b in zip(buggy.net.parameters(), plain.net.parameters()):
    assert torch.equal(a, b)


def drift(tr):
    with torch.no_grad():
        p_new = F.softmax(tr.net(x_old)[:, : tr.n_old], dim=1)
        p_old = F.softmax(tr.prev(x_old), dim=1)
        return (p_new - p_old).abs().sum(dim=1).mean().item()


assert drift(good) < drift(buggy)
print(f"old-class drift: buggy {drift(buggy):.4f}  fixed {drift(good):.4f}")
