"""
expect: none
dynamic: dismiss
source: https://github.com/facebookresearch/moco/issues/128

The issue asks about MoCo's _dequeue_and_enqueue, which overwrites a slice of the
negative-key queue in place every step, right after the logits that used the queue
were built and before backward. That looks like an in-place edit of a tensor the
graph needs, and the keys come from a no_grad key encoder, but it is fine: the logits
use queue.clone().detach(), so the saved tensor is a copy, and the key encoder is
meant to be updated only by momentum. The asserts show backward runs, the query
encoder gets the same gradient as with a frozen snapshot of the old queue, the queue
really changed, and the contrastive loss goes down.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from builder import MoCo

torch.manual_seed(0)
torch.set_num_threads(1)

base = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
model = MoCo(base, dim=8, K=32)
opt = torch.optim.SGD(model.encoder_q.parameters(), lr=0.5)
data = torch.randn(64, 16)


def augment(x):
    return x + 0.05 * torch.randn_like(x)


x = data[:8]
im_q, im_k = augment(x), augment(x)
old_queue = model.queue.clone()
logits, labels = model(im_q, im_k)
loss = F.cross_entropy(logits, labels)
assert not torch.equal(old_queue, model.queue)  # queue was rewritten before backward
loss.backward()
grads = [p.grad.clone() for p in model.encoder_q.parameters()]
assert all(g.abs().sum() > 0 for g in grads)
assert all(p.grad is None for p in model.encoder_k.parameters())

# Same loss rebuilt by hand with the snapshot of the old queue: identical gradient.
model.zero_grad()
q = F.normalize(model.encoder_q(im_q), dim=1)
with torch.no_grad():
    k = F.normalize(model.encoder_k(im_k), dim=1)
ref = torch.cat([(q * k).sum(1, keepdim=True), q @ old_queue], dim=1) / model.T
F.cross_entropy(ref, labels).backward()
assert all(torch.allclose(g, p.grad, atol=1e-6) for g, p in zip(grads, model.encoder_q.parameters()))

losses = []
for step in range(40):
    x = data[(step * 8) % 64:(step * 8) % 64 + 8]
    logits, labels = model(augment(x), augment(x))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
assert sum(losses[-5:]) < sum(losses[:5])
print("ok", losses[0], losses[-1])
