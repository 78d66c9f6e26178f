"""
expect: GL001 ewc.py:24
dynamic: confirm
source: https://github.com/shivamsaboo17/Overcoming-Catastrophic-forgetting-in-Neural-Networks/issues/2

A continual-learning run with elastic weight consolidation: a small classifier (feature
extractor plus head) is trained on task A, then the Fisher information of its parameters
is estimated from the log-likelihood of task A and used to anchor them while task B is
learned. As in the report, the Fisher helper detaches the feature-extractor output to keep
the per-batch graph small, and calls autograd.grad(..., allow_unused=True) to silence the
resulting "not used in the graph" error. The cut at the detach means the log-likelihood no
longer reaches the feature extractor: its gradients come back as None, its Fisher entries
are all zero, and the consolidation penalty, which the author meant to hold the backbone
near its task-A weights, sends no gradient at all to the backbone parameters the optimizer
holds. The asserts show the zero Fisher and the zero penalty gradient on the backbone,
and that computing the Fisher without the detach gives the backbone a real penalty.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

from ewc import ElasticWeightConsolidation

torch.manual_seed(0)
torch.set_num_threads(1)


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 16), nn.ReLU())
        self.head = nn.Linear(16, 3)

    def forward(self, x):
        return self.head(self.features(x))


def make_task(shift, n_batches=6, bs=32):
    w = torch.randn(10, 3)
    out = []
    for _ in range(n_batches):
        x = torch.randn(bs, 10) + shift
        out.append((x, (x @ w).argmax(1)))
    return out


task_a, task_b = make_task(0.0), make_task(1.5)
net = SmallNet()
ewc = ElasticWeightConsolidation(net, nn.CrossEntropyLoss())

plain_opt = torch.optim.SGD(net.parameters(), lr=0.1)
for _ in range(30):
    for x, y in task_a:
        plain_opt.zero_grad()
        F.cross_entropy(net(x), y).backward()
        plain_opt.step()

reference = copy.deepcopy(net)
ewc.register_ewc_params(task_a)

backbone = [n for n, _ in net.named_parameters() if n.startswith("features")]
head = [n for n, _ in net.named_parameters() if n.startswith("head")]
assert all(ewc.fisher[n].abs().sum() == 0 for n in backbone), "backbone Fisher should be zero"
assert all(ewc.fisher[n].abs().sum() > 0 for n in head)

# move away from the anchor as task-B training would, then look at the penalty's gradient
with torch.no_grad():
    for p in net.parameters():
        p.add_(0.05 * torch.randn_like(p))
net.zero_grad()
ewc.consolidation_loss().backward()
grads = dict(net.named_parameters())
assert all(grads[n].grad.abs().sum() == 0 for n in backbone), "penalty must not reach the backbone"
assert any(grads[n].grad.abs().sum() > 0 for n in head)

# intended: the Fisher is taken through the whole network
fixed = copy.deepcopy(reference)
ll = torch.cat([F.log_softmax(fixed(x), 1)[torch.arange(len(y)), y] for x, y in task_a]).mean()
g = torch.autograd.grad(ll, list(fixed.parameters()))
fisher_ok = {n: gi.detach() ** 2 for (n, _), gi in zip(fixed.named_parameters(), g)}
assert all(fisher_ok[n].abs().sum() > 0 for n in backbone)
with torch.no_grad():
    for p in fixed.parameters():
        p.add_(0.05 * torch.randn_like(p))
anchor = dict(reference.named_parameters())
pen = sum((fisher_ok[n] * (p - anchor[n].detach()) ** 2).sum() for n, p in fixed.named_parameters())
(ewc.weight / 2 * pen).backward()
fixed_params = dict(fixed.named_parameters())
assert all(fixed_params[n].grad.abs().sum() > 0 for n in backbone)

for x, y in task_b:
    ewc.forward_backward_update(x, y)
print("backbone Fisher (detached helper):", sum(ewc.fisher[n].sum().item() for n in backbone))
print("backbone Fisher (full graph):", sum(fisher_ok[n].sum().item() for n in backbone))
