"""
expect: none
dynamic: dismiss
source: kind A

A vision pipeline extracts features from a frozen backbone through a
project-local ``@frozen`` decorator built with ``functools.wraps`` and a
``with torch.no_grad():`` block inside the wrapper.  The decorated function
rescales the ReLU output in place (ReLU saves its result for backward), but
since the whole body runs with grad disabled, no graph exists and the edit is
safe.  Only the small head on top is trained.
"""
import functools

import torch
import torch.nn as nn
import torch.nn.functional as F


def frozen(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with torch.no_grad():
            return fn(*args, **kwargs)
    return wrapper


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)


@frozen
def embed(backbone, images, scale=0.5):
    h = torch.relu(backbone.conv1(images))
    h.mul_(scale)
    h = torch.relu(backbone.conv2(h))
    h *= scale
    return h.mean(dim=(2, 3))


def main():
    torch.manual_seed(1)
    backbone = Backbone()
    head = nn.Linear(16, 5)
    opt = torch.optim.SGD(head.parameters(), lr=0.5)
    images = torch.randn(12, 3, 16, 16)
    labels = torch.randint(0, 5, (12,))
    losses = []
    for _ in range(30):
        z = embed(backbone, images)
        assert not z.requires_grad
        loss = F.cross_entropy(head(z), labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < losses[0], losses
    assert backbone.conv1.weight.grad is None
    print("head trained", losses[0], "->", losses[-1])


if __name__ == "__main__":
    main()
