"""
expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/moco/issues/70

An issue on the MoCo code asked why the momentum update of the key encoder
(a `@torch.no_grad()` method that rewrites `param_k.data`) ignores BatchNorm buffers; the
maintainer replied that the key encoder's running statistics are never used. The
surrounding code is full of patterns that look like autograd mistakes but are not: keys
computed under no_grad, parameter edits through `.data`, a queue buffer overwritten in
place after it was used for the logits (a cloned, detached copy goes into the matmul).
The asserts show the query encoder receives gradients and its loss falls, the key
encoder gets no gradient yet follows the query weights, and the queue is refreshed.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from builder import MoCo

torch.set_num_threads(1)


def encoder():
    return nn.Sequential(nn.Linear(12, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 16))


torch.manual_seed(0)
model = MoCo(encoder)
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.05, momentum=0.9)
data = torch.randn(128, 12)
queue0 = model.queue.clone()
k0 = model.encoder_k[0].weight.detach().clone()
epoch_losses = []
for epoch in range(6):
    total = 0.0
    for i in range(0, 128, 16):
        base = data[i:i + 16]
        im_q = base + 0.1 * torch.randn_like(base)
        im_k = base + 0.1 * torch.randn_like(base)
        logits, labels = model(im_q, im_k)
        loss = F.cross_entropy(logits, labels)
        opt.zero_grad()
        loss.backward()
        assert all(p.grad is not None for p in model.encoder_q.parameters())
        assert all(p.grad is None for p in model.encoder_k.parameters())
        opt.step()
        total += loss.item()
    epoch_losses.append(total / 8)

assert epoch_losses[-1] < epoch_losses[1], epoch_losses
assert not torch.equal(k0, model.encoder_k[0].weight)
assert not torch.equal(queue0, model.queue)
print("p14 ok: MoCo momentum/queue updates are no_grad on purpose; query encoder learns")
