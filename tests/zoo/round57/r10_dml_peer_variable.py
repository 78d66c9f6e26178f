"""
expect: none
dynamic: dismiss
source: https://github.com/ChielWH/mutual-knowledge-distillation/blob/8be856c7b4c0bdf2226bf0727976f10fdc25c9b0/trainer.py

Deep mutual learning (online distillation between peer networks). All peers run their
forward once per batch; then, peer by peer, the loss is cross-entropy plus the KL toward
the other peers' softmax, and `optimizers[i].step()` is called inside the loop, before
the next peer's backward. Stepping an optimizer between backward passes that share a
batch of forward results is the classic recipe for "modified by an inplace operation"
or for gradients leaking into the wrong network, but here the peers' logits enter as
`F.softmax(Variable(outputs[j]), dim=1)`: in current PyTorch `Variable(t)` returns a
tensor that does not require grad, i.e. the peer prediction is a fixed target, which is
exactly what DML prescribes. Each backward therefore touches only its own network's
graph, and the in-loop step changes weights no remaining graph depends on. The program
checks that peer j gets no gradient from peer i's loss, that the in-loop updates equal a
reference computed with explicitly detached targets, and that both peers improve.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

torch.manual_seed(0)
torch.set_num_threads(1)


def make_net(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(8, 16), nn.ReLU(inplace=True), nn.Linear(16, 4))


def dml_step(nets, optimizers, _images, _true_labels, check_isolation=False):
    images, true_labels = [], []
    for i in range(len(nets)):
        images.append(Variable(_images.clone()))
        true_labels.append(Variable(_true_labels.clone()))
    outputs = [net(images[i]) for i, net in enumerate(nets)]
    loss_kl = nn.KLDivLoss(reduction="batchmean")
    total = []
    for i in range(len(nets)):
        loss = F.cross_entropy(outputs[i], true_labels[i])
        p_i = F.log_softmax(outputs[i], dim=1)
        dml_signal = 0
        for j in range(len(nets)):
            if i != j:
                p_j = F.softmax(Variable(outputs[j]), dim=1)
                dml_signal += loss_kl(p_i, p_j)
        loss += dml_signal / max(1, len(nets) - 1)
        optimizers[i].zero_grad()
        if check_isolation:
            before = [[None if p.grad is None else p.grad.clone() for p in n.parameters()] for n in nets]
        loss.backward()
        if check_isolation:
            for j, other in enumerate(nets):
                if j != i:
                    for b, p in zip(before[j], other.parameters()):
                        assert (b is None and p.grad is None) or torch.equal(b, p.grad)
        optimizers[i].step()
        total.append(loss.item())
    return total


def reference_step(nets, optimizers, x, y):
    outputs = [net(x) for net in nets]
    targets = [F.softmax(o.detach(), dim=1) for o in outputs]
    losses = []
    for i, o in enumerate(outputs):
        kl = sum(F.kl_div(F.log_softmax(o, dim=1), targets[j], reduction="batchmean")
                 for j in range(len(nets)) if j != i)
        losses.append(F.cross_entropy(o, y) + kl / (len(nets) - 1))
    for opt in optimizers:
        opt.zero_grad()
    sum(losses).backward()
    for opt in optimizers:
        opt.step()


g = torch.Generator().manual_seed(1)
X = torch.randn(32, 8, generator=g)
Y = (X[:, :2].sum(1) > 0).long() + 2 * (X[:, 2] > 0).long()

nets = [make_net(10), make_net(11)]
ref_nets = copy.deepcopy(nets)
opts = [torch.optim.SGD(n.parameters(), lr=0.1) for n in nets]
ref_opts = [torch.optim.SGD(n.parameters(), lr=0.1) for n in ref_nets]

first = dml_step(nets, opts, X, Y, check_isolation=True)
reference_step(ref_nets, ref_opts, X, Y)
for n, r in zip(nets, ref_nets):
    for p, q in zip(n.parameters(), r.parameters()):
        assert torch.allclose(p, q, atol=1e-6)

for _ in range(60):
    last = dml_step(nets, opts, X, Y)
assert all(l < f for l, f in zip(last, first)), (first, last)
print("r10 ok: per-peer steps match the detached-target reference; losses %s -> %s"
      % ([round(v, 3) for v in first], [round(v, 3) for v in last]))
