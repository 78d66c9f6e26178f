"""
expect: none
dynamic: dismiss
source: https://github.com/LiJunnan1992/MLNT/issues/8

MLNT (meta-learning on noisy labels) calls `class_loss.backward(retain_graph=True)` on
every batch, then reuses the same `outputs` for several synthetic-noise losses whose fast
weights are checked against a mentor network, and only then steps the optimizer. The
retained graph belongs to the current batch and is rebuilt on the next one, nothing is
carried across iterations, and no parameter is changed between the backward calls. The
asserts show the autograd graph per iteration stays the same size, every parameter gets a
gradient from both objectives, and the classification loss falls.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.func import functional_call

torch.set_num_threads(1)
torch.manual_seed(0)


def graph_size(t):
    seen, stack = set(), [t.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)


net = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 4))
tch_net = copy.deepcopy(net)
for p in tch_net.parameters():
    p.requires_grad_(False)
optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
criterion, consistent_criterion = nn.CrossEntropyLoss(), nn.KLDivLoss(reduction="batchmean")
meta_lr, num_fast, perturb_ratio = 0.2, 3, 0.5

w_true = torch.randn(10, 4)
sizes, class_losses = [], []
for batch_idx in range(45):
    inputs = torch.randn(32, 10)
    targets = (inputs @ w_true).argmax(1)
    outputs = net(inputs)
    class_loss = criterion(outputs, targets)
    class_loss.backward(retain_graph=True)
    sizes.append(graph_size(class_loss))

    tch_outputs = F.softmax(tch_net(inputs), 1)
    params = dict(net.named_parameters())
    for i in range(num_fast):
        targets_fast = targets.clone()
        flip = torch.rand(32) < perturb_ratio
        targets_fast[flip] = torch.randint(0, 4, (int(flip.sum()),))
        fast_loss = criterion(outputs, targets_fast)
        grads = torch.autograd.grad(fast_loss, list(params.values()), create_graph=True, retain_graph=True)
        fast_weights = {n: p - meta_lr * g for (n, p), g in zip(params.items(), grads)}
        fast_out = functional_call(net, fast_weights, (inputs,))
        consistent_loss = consistent_criterion(F.log_softmax(fast_out, 1), tch_outputs) / num_fast
        consistent_loss.backward(retain_graph=True)
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in net.parameters())
    optimizer.step()
    optimizer.zero_grad()
    with torch.no_grad():                                    # mentor = EMA of the student
        for tp, p in zip(tch_net.parameters(), net.parameters()):
            tp.mul_(0.9).add_(0.1 * p)
    class_losses.append(class_loss.item())

assert len(set(sizes)) == 1, "the retained graph does not grow across batches"
assert sum(class_losses[-10:]) < 0.7 * sum(class_losses[:10])
print("p17 ok: retain_graph within one batch only", sizes[0], class_losses[0], class_losses[-1])
