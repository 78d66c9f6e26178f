"""
expect: GL001 52
dynamic: confirm
source: https://github.com/Lyken17/pytorch-memonger/issues/4

The report: wrapping a ResNet's stages in the sublinear-memory checkpointing prints "None of the
inputs have requires_grad=True. Gradients will be None", and "layer1's parameters can't be
optimized": the images fed to the first checkpointed segment do not require grad, and the
reentrant checkpoint runs that segment under no_grad, so its output carries no history. This
program rebuilds a small ResNet-style classifier whose trunk runs through checkpoint_sequential.
The asserts show the stem and layer1 (the checkpointed segment) keep grad None and never change,
while the later stages and the head train; running the trunk without checkpointing trains all.
"""
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint_sequential

warnings.filterwarnings("ignore", message="None of the inputs have requires_grad")


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(x + self.bn2(self.conv2(out)))


class MemoryEfficientResNet(nn.Module):
    def __init__(self, c=8, n_cls=5, segments=2, use_checkpoint=True):
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU()),  # stem
            nn.Sequential(BasicBlock(c), BasicBlock(c)),              # layer1
            nn.Sequential(BasicBlock(c), BasicBlock(c)),              # layer2
            nn.Sequential(BasicBlock(c)),                             # layer3
        )
        self.fc = nn.Linear(c, n_cls)
        self.segments = segments
        self.use_checkpoint = use_checkpoint

    def forward(self, x):
        if self.use_checkpoint:
            out = checkpoint_sequential(self.trunk, self.segments, x, use_reentrant=True)
        else:
            out = self.trunk(x)
        return self.fc(out.mean((2, 3)))


def fit(use_checkpoint, steps=3):
    torch.manual_seed(0)
    model = MemoryEfficientResNet(use_checkpoint=use_checkpoint)
    opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = torch.randn(4, 3, 8, 8), torch.randint(0, 5, (4,))
    stem0 = model.trunk[0][0].weight.detach().clone()
    late0 = model.trunk[2][0].conv1.weight.detach().clone()
    for _ in range(steps):
        opt.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        grads = {n: p.grad for n, p in model.named_parameters()}
        opt.step()
    return model, grads, stem0, late0


model, grads, stem0, late0 = fit(use_checkpoint=True)
early = [n for n in grads if n.startswith(("trunk.0.", "trunk.1."))]
assert early and all(grads[n] is None for n in early), "stem and layer1 get no gradient"
assert torch.equal(stem0, model.trunk[0][0].weight), "stem never changes"
assert grads["fc.weight"] is not None and not torch.equal(late0, model.trunk[2][0].conv1.weight)

model, grads, stem0, _ = fit(use_checkpoint=False)
assert all(g is not None for g in grads.values()) and not torch.equal(stem0, model.trunk[0][0].weight)
print("ok: reentrant checkpoint on inputs without grad leaves the first segment untrained")
