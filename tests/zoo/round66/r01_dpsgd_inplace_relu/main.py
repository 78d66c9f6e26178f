"""
expect: GL005 convnet.py:25
dynamic: confirm
source: https://github.com/meta-pytorch/opacus/issues/828

Differentially private training (DP-SGD). A small CIFAR-style conv net is wrapped by a
per-sample-gradient engine (grad_sample.py) that, like Opacus, puts a full backward hook on
every Conv2d/Linear so it can clip and noise each example's gradient. The model
(convnet.py) uses `nn.ReLU(inplace=True)` directly after a hooked convolution. The
full-backward-hook machinery returns the conv output through a custom autograd Function,
and the in-place ReLU then rewrites that output in place, which autograd forbids ("Output 0
of BackwardHookFunction... is being modified inplace"), so the private training step dies;
this is the failure the issue reports after ModuleValidator.fix() on a ResNet. The asserts
catch that RuntimeError on the default (in-place) model, then build the same net with an
out-of-place ReLU and show that DP-SGD steps run, per-sample gradients exist, and the loss
goes down.
"""
import os
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch
import torch.nn.functional as F

from convnet import SmallConvNet, build_model
from grad_sample import make_private

torch.manual_seed(0)
torch.set_num_threads(1)
warnings.filterwarnings("ignore", message="Full backward hook")


def make_data(n=96):
    x = torch.randn(n, 3, 8, 8)
    y = (x[:, 0].mean((1, 2)) > 0).long() + (x[:, 1].mean((1, 2)) > 0).long()
    return x, y


def train_private(model, x, y, steps=40, batch=32):
    private_model, optimizer = make_private(model)
    losses = []
    for step in range(steps):
        idx = torch.arange(step * batch, (step + 1) * batch) % x.size(0)
        optimizer.zero_grad()
        loss = F.cross_entropy(private_model(x[idx]), y[idx])
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


def full_loss(model, x, y):
    with torch.no_grad():
        return F.cross_entropy(model(x), y).item()


def main():
    x, y = make_data()

    # default configuration: in-place ReLU after a hooked conv
    model = build_model()
    try:
        train_private(model, x, y, steps=1)
        raised = None
    except RuntimeError as err:
        raised = str(err)
    assert raised is not None and "modified inplace" in raised, raised
    print("buggy model failed as expected:", raised[:90], "...")

    # fixed: out-of-place activation
    torch.manual_seed(0)
    fixed = SmallConvNet(activation=torch.nn.ReLU())
    before = full_loss(fixed, x, y)
    train_private(fixed, x, y, steps=150)
    after = full_loss(fixed, x, y)
    conv = fixed.features[2]
    assert conv.weight.grad_sample.shape == (32,) + tuple(conv.weight.shape)
    print("fixed model loss %.4f -> %.4f" % (before, after))
    assert after < before - 0.05


if __name__ == "__main__":
    main()
