"""
expect: GL002 28
dynamic: confirm
source: kind B

A GAN augmentation module learns a global 2x2 affine warp applied to 2-D
latent codes before they enter the generator.  The warp entries are scalar
nn.Parameters pulled into locals (``sx, sh = self.scale_x, self.shear`` ...)
and assembled with a nested ``torch.tensor`` call.  The result is detached
from the parameters; since the warp is the only trainable part, the loss does
not even require grad and backward raises.
"""
import torch
import torch.nn as nn


class LatentWarp(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale_x = nn.Parameter(torch.tensor(1.0))
        self.scale_y = nn.Parameter(torch.tensor(1.0))
        self.shear = nn.Parameter(torch.tensor(0.0))
        self.skew = nn.Parameter(torch.tensor(0.0))

    def matrix(self):
        sx, sh = self.scale_x, self.shear
        sk, sy = self.skew, self.scale_y
        return torch.tensor([[sx, sh], [sk, sy]])

    def forward(self, z):
        return z @ self.matrix().t()


def frozen_generator(z):
    # stand-in for a pretrained generator: fixed random features
    g = torch.Generator().manual_seed(7)
    w = torch.randn(2, 16, generator=g)
    return torch.tanh(z @ w)


def main():
    torch.manual_seed(4)
    warp = LatentWarp()
    z = torch.randn(32, 2)
    real = torch.tanh(torch.randn(32, 16))
    fake = frozen_generator(warp(z))
    loss = (fake.mean(0) - real.mean(0)).pow(2).sum()
    assert not loss.requires_grad
    try:
        loss.backward()
    except RuntimeError as e:
        assert "does not require grad" in str(e), e
        print("warp parameters are cut off from the loss")
    else:
        raise AssertionError("expected backward to fail")
    assert all(p.grad is None for p in warp.parameters())


if __name__ == "__main__":
    main()
