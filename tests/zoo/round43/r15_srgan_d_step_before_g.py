"""
expect: GL005 56
dynamic: confirm
source: https://blog.csdn.net/odbej/article/details/125158288

A small super-resolution GAN: the generator upsamples a low-resolution patch, the discriminator scores
high-resolution patches. To save a forward pass the step scores the fake once, backpropagates the
discriminator loss with retain_graph=True, calls optimizer_D.step(), and then reuses the same D(fake) scores
for the generator's adversarial loss. optimizer_D.step() rewrites the discriminator weights in place while
the retained graph still holds them for the generator's backward, so loss_G.backward() fails with "modified
by an inplace operation", the error the post explains. The asserts catch that error and then run the
usual order (detach the fake for D, step D, score the fake again for G) and check that both networks update.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Generator(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, c, 3, padding=1), nn.ReLU(), nn.Conv2d(c, 3 * 4, 3, padding=1))
        self.shuffle = nn.PixelShuffle(2)

    def forward(self, lr):
        up = F.interpolate(lr, scale_factor=2, mode="nearest")
        return up + self.shuffle(self.body(lr))


class Discriminator(nn.Module):
    def __init__(self, c=8):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(3, c, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(c, c, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c, 1),
        )

    def forward(self, hr):
        return self.net(hr)


def bce(logits, value):
    return F.binary_cross_entropy_with_logits(logits, torch.full_like(logits, value))


def reuse_step(G, D, opt_G, opt_D, lr, hr):
    fake = G(lr)
    d_fake = D(fake)
    loss_D = bce(D(hr), 1.0) + bce(d_fake, 0.0)
    opt_D.zero_grad()
    loss_D.backward(retain_graph=True)
    opt_D.step()
    loss_G = bce(d_fake, 1.0) + 10.0 * F.l1_loss(fake, hr)
    opt_G.zero_grad()
    loss_G.backward()
    opt_G.step()


def ordered_step(G, D, opt_G, opt_D, lr, hr):
    fake = G(lr)
    loss_D = bce(D(hr), 1.0) + bce(D(fake.detach()), 0.0)
    opt_D.zero_grad()
    loss_D.backward()
    opt_D.step()
    loss_G = bce(D(fake), 1.0) + 10.0 * F.l1_loss(fake, hr)
    opt_G.zero_grad()
    loss_G.backward()
    opt_G.step()
    return loss_D.item(), loss_G.item()


hr = torch.rand(4, 3, 16, 16)
lr = F.avg_pool2d(hr, 2)

G, D = Generator(), Discriminator()
opt_G = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_D = torch.optim.Adam(D.parameters(), lr=1e-3)
try:
    reuse_step(G, D, opt_G, opt_D, lr, hr)
    raise AssertionError("expected the discriminator update to invalidate the retained graph")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err)

G, D = Generator(), Discriminator()
opt_G = torch.optim.Adam(G.parameters(), lr=1e-3)
opt_D = torch.optim.Adam(D.parameters(), lr=1e-3)
g0 = [p.detach().clone() for p in G.parameters()]
d0 = [p.detach().clone() for p in D.parameters()]
for _ in range(3):
    ordered_step(G, D, opt_G, opt_D, lr, hr)
assert all(not torch.equal(a, p) for a, p in zip(g0, G.parameters()))
assert all(not torch.equal(a, p) for a, p in zip(d0, D.parameters()))
print("reusing D(fake) after opt_D.step() raises; re-scoring the fake trains both networks")
