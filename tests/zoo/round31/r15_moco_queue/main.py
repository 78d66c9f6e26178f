"""
expect: GL005 moco.py:28
dynamic: confirm
source: https://github.com/facebookresearch/moco/issues/21

A user asked why MoCo's builder computes the negative logits from
self.queue.clone().detach() instead of self.queue. The maintainer answered that the queue
is modified in place by _dequeue_and_enqueue inside the same forward, so without the clone
the einsum's saved copy of the queue is overwritten before backward. This copy drops the
clone (clone_queue=False): the enqueue slice-assign in moco.py changes the tensor einsum
saved. The asserts show backward fails with the version-counter error, while the cloned
variant trains the query encoder.
"""
import torch
import torch.nn.functional as F
from moco import MoCo

torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(16, 16)


def train_step(model, opt):
    logits, labels = model(x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x))
    loss = F.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


buggy = MoCo(clone_queue=False)
opt = torch.optim.SGD(buggy.encoder_q.parameters(), lr=0.1)
try:
    train_step(buggy, opt)
    raised = False
except RuntimeError as e:
    raised = "modified by an inplace operation" in str(e)
assert raised, "expected the saved queue to be invalidated by the in-place enqueue"

torch.manual_seed(0)
fixed = MoCo(clone_queue=True)
opt = torch.optim.SGD(fixed.encoder_q.parameters(), lr=0.1)
w0 = fixed.encoder_q[0].weight.detach().clone()
for _ in range(3):
    train_step(fixed, opt)
assert not torch.equal(w0, fixed.encoder_q[0].weight)
print("bug confirmed: in-place enqueue breaks backward; cloned queue trains")
