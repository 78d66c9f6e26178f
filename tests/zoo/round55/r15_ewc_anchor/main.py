"""
expect: none
dynamic: dismiss
source: https://github.com/Pervasive-AI-Lab/crlmaze/issues/1

Continual learning with elastic weight consolidation for a small policy-style
classifier trained on two tasks in sequence. After task A the regularizer in
ewc.py stores, per parameter, an anchor copy taken with param.data.clone() and a
Fisher diagonal taken from param.grad.data; during task B the penalty
lambda * F * (anchor - param)^2 is added to the task loss. The issue asks whether
the EWC loss needs requires_grad=True because "the gradient of ewc is not
considered in backward": it does not. The .data copies are constants on purpose
(the anchor and the importance must not move), and the penalty still depends on
the live parameters, so it trains them. The asserts check that the penalty has a
grad_fn, that it adds a non-zero gradient pulling each weight toward its anchor,
that the anchors and Fisher values never change, and that task-A accuracy is kept
better with the penalty than without it.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from ewc import EWCRegularizer

torch.manual_seed(0)
torch.set_num_threads(1)


def make_task(cols, center, n=400):
    x = torch.randn(n, 10)
    y = (x[:, cols].sum(dim=1) > 0).long()
    x[:, 8:] += center
    return x, y


task_a = make_task([0, 1, 2], 3.0)
task_b = make_task([5, 6, 7], -3.0)

net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(300):
    opt.zero_grad()
    F.cross_entropy(net(task_a[0]), task_a[1]).backward()
    opt.step()

reg = EWCRegularizer(ewc_lambda=100.0)
opt.zero_grad()
probe = task_a[0][:16]
with torch.no_grad():
    sampled = torch.multinomial(F.softmax(net(probe), dim=1), 1).squeeze(1)
F.cross_entropy(net(probe), sampled, reduction="mean").backward()
reg.update_fisher_optpar("A", net.named_parameters())
anchors = {k: v.clone() for k, v in reg.optpar["A"].items()}
fishers = {k: v.clone() for k, v in reg.fisher["A"].items()}
plain = copy.deepcopy(net)

# the penalty is on the tape and its gradient pulls toward the anchors
with torch.no_grad():
    for p in net.parameters():
        p.add_(0.05 * torch.randn_like(p))
penalty = reg(net.named_parameters())
assert penalty.grad_fn is not None and penalty.item() > 0
net.zero_grad()
penalty.backward()
for name, p in net.named_parameters():
    expected = 2 * reg.ewc_lambda * fishers[name] * (p.detach() - anchors[name])
    assert torch.allclose(p.grad, expected, atol=1e-5)
assert any(p.grad.abs().sum() > 0 for p in net.parameters())
with torch.no_grad():
    for name, p in net.named_parameters():
        p.copy_(anchors[name])


def train_b(model, use_ewc, steps=300):
    o = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        o.zero_grad()
        loss = F.cross_entropy(model(task_b[0]), task_b[1])
        if use_ewc:
            loss = loss + reg(model.named_parameters())
        loss.backward()
        o.step()


def acc(model, task):
    with torch.no_grad():
        return (model(task[0]).argmax(1) == task[1]).float().mean().item()


train_b(net, use_ewc=True)
train_b(plain, use_ewc=False)
assert all(torch.equal(anchors[k], reg.optpar["A"][k]) for k in anchors)
assert all(torch.equal(fishers[k], reg.fisher["A"][k]) for k in fishers)
assert all(torch.isfinite(p).all() for p in net.parameters())
assert acc(net, task_a) > acc(plain, task_a) + 0.05
assert acc(net, task_b) > 0.8
print(f"task A accuracy after task B: with EWC {acc(net, task_a):.2f}, without {acc(plain, task_a):.2f}")
