"""
expect: GL005 27
dynamic: confirm
source: kinds check 22, kind 7 (written for this check)

A GAN discriminator's residual block applies its 1x1 shortcut conv to x first, then a
branch that starts with LeakyReLU(0.2, inplace=True); the in-place activation overwrites
the x the shortcut conv saved, so backward raises. The asserts prove the raise and that
the same block with a non-in-place activation trains.
"""
import torch
import torch.nn as nn


class DiscBlock(nn.Module):
    def __init__(self, c_in, c_out):
        super().__init__()
        self.shortcut = nn.Conv2d(c_in, c_out, 1)
        self.branch = nn.Sequential(
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(c_in, c_out, 3, padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(c_out, c_out, 3, padding=1),
        )

    def forward(self, x):
        return self.shortcut(x) + self.branch(x)


class DiscBlockFixed(DiscBlock):
    def __init__(self, c_in, c_out):
        super().__init__(c_in, c_out)
        self.branch[0] = nn.LeakyReLU(0.2)


class Discriminator(nn.Module):
    def __init__(self, block_cls=DiscBlock):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.block = block_cls(8, 16)
        self.critic = nn.Linear(16, 1)

    def forward(self, img):
        return self.critic(self.block(self.stem(img)).mean((2, 3)))


torch.manual_seed(13)
real, fake = torch.rand(4, 3, 16, 16), torch.rand(4, 3, 16, 16)
d = Discriminator()
loss = nn.functional.softplus(-d(real)).mean() + nn.functional.softplus(d(fake)).mean()
try:
    loss.backward()
    raise AssertionError("expected an in-place error")
except RuntimeError as err:
    assert "inplace operation" in str(err), err

d2 = Discriminator(DiscBlockFixed)
(nn.functional.softplus(-d2(real)).mean() + nn.functional.softplus(d2(fake)).mean()).backward()
assert all(p.grad.abs().sum() > 0 for p in d2.parameters())
print("ok: in-place branch activation clobbers the shortcut's saved input")
