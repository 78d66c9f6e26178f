"""
expect: GL005 blocks.py:25
dynamic: confirm
source: https://github.com/NVlabs/FUNIT/issues/23

FUNIT's discriminator is built from "activation-first" residual blocks: the shortcut
branch runs a 1x1 conv on the block input x, then the residual branch applies its
LeakyReLU to that same x before its first conv. The activations are created with
`inplace=True` to save memory, so the residual branch's first activation overwrites x
in place after the shortcut conv has already saved x for its weight gradient. Training
then stops at backward with "one of the variables needed for gradient computation has
been modified by an inplace operation" (the reported trace; the usual answer in the
thread is to set inplace=False). This copy keeps the same two-branch block in
blocks.py, trains a tiny discriminator on random 8x8 images with a hinge loss, and
asserts that the backward raises that RuntimeError and that no weight moves, while the
same network built with out-of-place activations trains (weights change, loss drops).
"""
import torch
import torch.nn as nn

from blocks import ActFirstResBlock, Conv2dBlock

torch.manual_seed(0)
torch.set_num_threads(1)


class Discriminator(nn.Module):
    def __init__(self, inplace):
        super().__init__()
        self.body = nn.Sequential(
            Conv2dBlock(3, 8, 3, 1, padding=1, activation="none"),
            ActFirstResBlock(8, 16, inplace=inplace),
            nn.AvgPool2d(2),
            ActFirstResBlock(16, 16, inplace=inplace),
        )
        self.head = Conv2dBlock(16, 1, 1, 1, activation="lrelu", activation_first=True,
                                inplace=inplace)

    def forward(self, x):
        return self.head(self.body(x)).mean(dim=(1, 2, 3))


def train(inplace, steps=20):
    disc = Discriminator(inplace)
    opt = torch.optim.Adam(disc.parameters(), lr=1e-3)
    real = torch.rand(16, 3, 8, 8)
    fake = torch.rand(16, 3, 8, 8) * 0.3
    before = [p.detach().clone() for p in disc.parameters()]
    losses = []
    for _ in range(steps):
        loss = torch.relu(1 - disc(real)).mean() + torch.relu(1 + disc(fake)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return disc, before, losses


if __name__ == "__main__":
    try:
        train(inplace=True)
        raise AssertionError("expected the in-place activation to break backward")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e

    disc, before, losses = train(inplace=False)
    assert any(not torch.equal(b, p) for b, p in zip(before, disc.parameters()))
    assert losses[-1] < losses[0]
    print("ok: activation-first in-place LeakyReLU breaks backward; out-of-place trains")
