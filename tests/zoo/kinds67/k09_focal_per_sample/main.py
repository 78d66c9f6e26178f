"""
expect: GL002 main.py:38, GL003 main.py:38
dynamic: confirm
source: none, invented

Tabular classification with class imbalance, trained with a focal loss. `losses.focal_loss`
walks the batch sample by sample: it reads the target probability out with `.item()`,
evaluates the focal formula with `math`, writes `torch.tensor(v)` into a preallocated
buffer, then sets `requires_grad = True` on the buffer so that `.backward()` stops
complaining, and returns its mean. main.py backpropagates that value. The returned loss has
the right number but is a leaf built from Python floats, so backward ends at the buffer
and the network never receives a gradient. The asserts show every parameter's `.grad` is
None and the weights are unchanged, although the loss value matches the batched focal loss;
`focal_loss_batched` (same formula on tensors) trains the network.
"""
import torch
import torch.nn as nn

from losses import focal_loss, focal_loss_batched

torch.manual_seed(0)
torch.set_num_threads(1)


def make_net():
    return nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 3))


features = torch.randn(64, 12)
labels = (torch.rand(64) < 0.15).long() + (torch.rand(64) < 0.05).long()

torch.manual_seed(1)
net = make_net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
w_before = net[0].weight.detach().clone()
for epoch in range(5):
    logits = net(features)
    loss = focal_loss(logits, labels)
    assert torch.allclose(loss.detach(), focal_loss_batched(logits, labels).detach(), atol=1e-5)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert all(p.grad is None for p in net.parameters())
assert torch.equal(net[0].weight, w_before)

torch.manual_seed(1)
net = make_net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
w_before = net[0].weight.detach().clone()
for epoch in range(5):
    loss = focal_loss_batched(net(features), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
assert net[0].weight.grad.abs().sum() > 0
assert not torch.equal(net[0].weight, w_before)
print("ok")
