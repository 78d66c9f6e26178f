"""
expect: none
dynamic: dismiss
source: https://github.com/Eric-mingjie/rethinking-network-pruning/issues/23

Network pruning / lottery tickets. The weight-level lottery-ticket script of this
repository prunes by global magnitude, writes the mask into the weights through
`weight.data.mul_(mask)`, rewinds to the original initialisation and then, in the
retraining loop, multiplies `weight.grad.data` by the mask after `loss.backward()`
and before `optimizer.step()`. The issue asked whether masking the gradient this
way is right. It is: both in-place edits touch buffers that no recorded operation
saved (the forward of the next batch reads the masked weight, and the gradient
buffer is consumed only by the optimizer), so nothing is cut and nothing is
corrupted. The asserts show the pruned entries stay exactly zero through plain
SGD retraining, that the surviving weights receive the same gradient as a
functional `weight * mask` network, and that the sparse ticket trains to a good
accuracy.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn as nn
import torch.nn.functional as F

from pruning import WeightLevelPruner, accuracy, snapshot, train_one_epoch

torch.manual_seed(0)
torch.set_num_threads(1)


def make_data(n=512):
    x = torch.randn(n, 20)
    w = torch.randn(20, 4)
    y = (x @ w).argmax(1)
    return x, y


def batches_of(x, y, bs=64):
    return [(x[i:i + bs], y[i:i + bs]) for i in range(0, len(x), bs)]


class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 64)
        self.fc2 = nn.Linear(64, 4)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


x, y = make_data()
batches = batches_of(x, y)
criterion = nn.CrossEntropyLoss()

model = SmallNet()
init_state = snapshot(model)

# 1) dense training
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for _ in range(15):
    train_one_epoch(model, None, batches, opt, criterion)
dense_acc = accuracy(model, x, y)

# 2) prune 60 % globally, rewind to init
pruner = WeightLevelPruner(model)
pruner.prune_global(0.6)
pruner.rewind(init_state)
assert abs(pruner.sparsity() - 0.6) < 0.02

# gradient check on one batch: masked grad == grad of the functional masked network
inputs, targets = batches[0]
model.zero_grad()
loss = criterion(model(inputs), targets)
loss.backward()
pruner.zero_pruned_grads()
masked_grad = model.fc1.weight.grad.clone()
w1 = model.fc1.weight.detach().clone().requires_grad_(True)
mask1 = pruner.masks[model.fc1]
h = F.relu(F.linear(inputs, w1 * mask1, model.fc1.bias.detach()))
ref_loss = criterion(F.linear(h, model.fc2.weight.detach(), model.fc2.bias.detach()), targets)
ref_grad, = torch.autograd.grad(ref_loss, w1)
assert torch.allclose(masked_grad, ref_grad, atol=1e-6)
assert masked_grad[mask1 == 0].abs().max() == 0
assert masked_grad[mask1 == 1].abs().sum() > 0

# 3) retrain the ticket (no momentum / weight decay, as in the weight-level script)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
start_acc = accuracy(model, x, y)
losses = [train_one_epoch(model, pruner, batches, opt, criterion) for _ in range(15)]
ticket_acc = accuracy(model, x, y)
assert abs(pruner.sparsity() - 0.6) < 0.02, "pruned weights must stay exactly zero"
for module, mask in pruner.masks.items():
    assert module.weight.data[mask == 0].abs().max() == 0
assert losses[-1] < losses[0] * 0.5
assert ticket_acc > start_acc + 0.2 and ticket_acc > 0.85
print(f"dense acc {dense_acc:.3f}  ticket acc {ticket_acc:.3f}  sparsity {pruner.sparsity():.2f}")
print("OK: in-place mask on weight.data / grad.data after backward is safe")
