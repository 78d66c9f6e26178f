"""
expect: none
dynamic: dismiss
source: https://github.com/zepx/pytorch-weight-prune/issues/2

A reader of this weight-pruning repo asked why MaskedLinear multiplies the weight by the
mask twice: once through weight.data in set_mask, and again in forward. This is fine: the
.data edit happens once, between training steps, when no graph holds the weight, and the
mask in forward keeps pruned weights at zero and their gradients at zero. The asserts
show no autograd error, pruned gradients stay exactly zero, pruned weights stay zero after
steps, and the kept weights still train.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class MaskedLinear(nn.Linear):
    def __init__(self, i, o):
        super().__init__(i, o)
        self.register_buffer("mask", torch.ones_like(self.weight))
        self.masked = False

    def set_mask(self, mask):
        self.mask.copy_(mask)
        self.weight.data = self.weight.data * self.mask
        self.masked = True

    def forward(self, x):
        w = self.weight * self.mask if self.masked else self.weight
        return F.linear(x, w, self.bias)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = MaskedLinear(10, 32)
        self.fc2 = MaskedLinear(32, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def magnitude_prune(net, frac):
    for m in net.modules():
        if isinstance(m, MaskedLinear):
            thr = m.weight.detach().abs().flatten().kthvalue(int(frac * m.weight.numel())).values
            m.set_mask((m.weight.detach().abs() > thr).float())


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
x, y = torch.randn(64, 10), torch.randint(0, 3, (64,))
for _ in range(3):
    opt.zero_grad(); F.cross_entropy(net(x), y).backward(); opt.step()

magnitude_prune(net, 0.5)
w_before = net.fc1.weight.detach().clone()
for _ in range(5):
    opt.zero_grad()
    F.cross_entropy(net(x), y).backward()
    pruned = net.fc1.mask == 0
    assert net.fc1.weight.grad[pruned].abs().sum() == 0
    assert net.fc1.weight.grad[~pruned].abs().sum() > 0
    opt.step()

assert net.fc1.weight[net.fc1.mask == 0].abs().sum() == 0
assert not torch.equal(net.fc1.weight[net.fc1.mask == 1], w_before[net.fc1.mask == 1])
print("ok: masked training keeps pruned weights at zero and trains the rest")
