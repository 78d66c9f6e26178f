"""
expect: none
dynamic: dismiss
source: https://github.com/pytorch/vision/issues/5703

The issue asks whether torchvision's ResNet needs `nn.ReLU(inplace=True)`, since the block
always writes `out = self.relu(out)`; the maintainer answered that the in-place ReLU really
does reuse the same memory and that it works. This program rebuilds a ResNet basic block with
a shared in-place ReLU applied after each BatchNorm and after the residual addition. It is a
look-alike: none of those in-place ReLUs overwrites a tensor that a recorded op saved for
backward (BatchNorm saves its input, not its output, and the addition saves nothing), so the
asserts show backward runs, the gradients equal those of an out-of-place copy of the same
block, and a few SGD steps reduce the loss.
"""
import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class BasicBlock(nn.Module):
    def __init__(self, planes, inplace=True):
        super().__init__()
        self.conv1 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=inplace)

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        out += identity
        out = self.relu(out)
        return out


class TinyResNet(nn.Module):
    def __init__(self, inplace=True):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.layer = BasicBlock(8, inplace=inplace)
        self.fc = nn.Linear(8, 5)

    def forward(self, x):
        return self.fc(self.layer(self.stem(x)).mean(dim=(2, 3)))


x = torch.randn(6, 3, 10, 10)
y = torch.randint(0, 5, (6,))
net = TinyResNet(inplace=True)
ref = copy.deepcopy(net)
for m in ref.modules():
    if isinstance(m, nn.ReLU):
        m.inplace = False

F.cross_entropy(net(x), y).backward()
F.cross_entropy(ref(x), y).backward()
for (name, p), q in zip(net.named_parameters(), ref.parameters()):
    assert p.grad is not None and torch.allclose(p.grad, q.grad, atol=1e-6), name

opt = torch.optim.SGD(net.parameters(), lr=0.1)
first = None
for _ in range(20):
    opt.zero_grad()
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    opt.step()
    first = loss.item() if first is None else first
assert loss.item() < first
print("ok: in-place ReLUs in the basic block give the same gradients and train")
