"""
expect: none
dynamic: dismiss
source: kinds check 24, kind 4 (written for this check)

The organ-segmentation net uses the same kind of static helper doing `x += skip` in place, but
forward hands it the raw convolution output before the ReLU; a convolution's backward saves
its input and weight, not its output, so nothing saved is changed. The asserts show the
backward runs, every parameter gets a nonzero gradient, and the gradients equal those of an
out-of-place reference built from the same weights.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(0)


class OrganSegNet(nn.Module):
    def __init__(self, c=8, n_cls=3):
        super().__init__()
        self.stem = nn.Conv2d(1, c, 3, padding=1)
        self.mid = nn.Conv2d(c, c, 3, padding=1)
        self.head = nn.Conv2d(c, n_cls, 1)

    @staticmethod
    def merge_skip(x, skip):
        x += skip
        return x

    def forward(self, scan):
        skip = torch.relu(self.stem(scan))
        h = self.merge_skip(self.mid(skip), skip)
        return self.head(torch.relu(h))


class OrganSegNetReference(OrganSegNet):
    def forward(self, scan):
        skip = torch.relu(self.stem(scan))
        return self.head(torch.relu(self.mid(skip) + skip))


scans = torch.randn(2, 1, 16, 16)
labels = torch.randint(0, 3, (2, 16, 16))
net = OrganSegNet()
ref = OrganSegNetReference()
ref.load_state_dict(copy.deepcopy(net.state_dict()))

F.cross_entropy(net(scans), labels).backward()
F.cross_entropy(ref(scans), labels).backward()
for (name, p), q in zip(net.named_parameters(), ref.parameters()):
    assert p.grad is not None and p.grad.abs().sum() > 0, name
    assert torch.allclose(p.grad, q.grad, atol=1e-6), name
print("ok: in-place skip merge on a conv output (nothing saved it) backpropagates")
