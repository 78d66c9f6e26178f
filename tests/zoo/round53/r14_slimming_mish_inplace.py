"""
expect: GL005 22
dynamic: confirm
source: https://github.com/tanluren/yolov3-channel-and-layer-pruning/issues/66

Sparsity training for channel pruning (network slimming) on a tiny Darknet-style backbone: each block is
conv -> BatchNorm -> Mish, and after backward an L1 subgradient is added to every BN gamma so that
unimportant channels can be pruned later. The repository's Mish was written in place,
x.mul_(softplus(x).tanh()), to save memory. Its input x is the BatchNorm output, which softplus saved for
backward; multiplying it in place bumps its version, so backward raises "one of the variables needed for
gradient computation has been modified by an inplace operation" (the issue shows it on the BatchNorm
output; the maintainers' fix was the out-of-place x * tanh(softplus(x))). The program asserts
the RuntimeError and shows that the out-of-place Mish trains and the L1 step shrinks the BN gammas.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MishInplace(nn.Module):
    def forward(self, x):
        return x.mul_(F.softplus(x).tanh())


class Mish(nn.Module):
    def forward(self, x):
        return x.mul(torch.tanh(F.softplus(x)))


def conv_bn_act(c_in, c_out, act):
    return nn.Sequential(nn.Conv2d(c_in, c_out, 3, padding=1, bias=False), nn.BatchNorm2d(c_out), act())


def build_backbone(act):
    return nn.Sequential(conv_bn_act(3, 8, act), conv_bn_act(8, 16, act), nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Linear(16, 5))


def update_bn(model, s=1e-3):
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.weight.grad.add_(s * torch.sign(m.weight.data))


def sparse_train(model, steps=3):
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    g = torch.Generator().manual_seed(7)
    for _ in range(steps):
        x = torch.randn(4, 3, 8, 8, generator=g)
        y = torch.randint(0, 5, (4,), generator=g)
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        update_bn(model)
        opt.step()
    return loss.item()


torch.manual_seed(0)
torch.set_num_threads(1)

try:
    sparse_train(build_backbone(MishInplace))
    raise AssertionError("expected the in-place Mish to break backward")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

torch.manual_seed(0)
model = build_backbone(Mish)
gamma_before = model[0][1].weight.detach().clone()
loss = sparse_train(model)
assert model[0][1].weight.grad is not None
assert not torch.equal(model[0][1].weight, gamma_before)
print("in-place Mish rejected by the version check as expected; out-of-place Mish sparse-trains, loss %.3f" % loss)
