"""
expect: GL005 53
dynamic: confirm
source: https://github.com/manuelfritsche/real-world-sr/issues/18

real-world-sr (DSGAN, "Frequency Separation for Real-World Super-Resolution") issue #18: training
the down-sampling GAN failed in backward with "one of the variables needed for gradient computation
has been modified by an inplace operation: [torch.FloatTensor [1, 256, 1, 1]] is at version 2;
expected version 1" - the last 1x1 conv weight of the discriminator. Both discriminator outputs are
computed up front, the discriminator is stepped, and only then is the generator's adversarial loss
backpropagated through the discriminator forward whose weights the step just changed in place.
This program rebuilds that trainer (generator + patch discriminator on high-frequency residuals)
and asserts the generator backward raises the in-place error; re-running the discriminator after
its step (the usual fix) trains both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def high_pass(x):
    return x - F.avg_pool2d(x, 5, stride=1, padding=2, count_include_pad=False)


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.LeakyReLU(0.2),
                                  nn.Conv2d(16, 3, 3, padding=1))

    def forward(self, x):
        return x + self.body(x)


class PatchDiscriminator(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, width, 3, padding=1), nn.LeakyReLU(0.2))
        self.classifier = nn.Conv2d(width, 1, 1)  # weight shape [1, width, 1, 1]

    def forward(self, x):
        return self.classifier(self.features(high_pass(x)))


def train_step(G, D, opt_g, opt_d, clean, real_noisy, rerun_d):
    fake = G(clean)
    d_real = D(real_noisy)
    d_fake_for_d = D(fake.detach())
    d_fake_for_g = D(fake)
    loss_d = F.softplus(-d_real).mean() + F.softplus(d_fake_for_d).mean()
    opt_d.zero_grad()
    loss_d.backward()
    opt_d.step()
    if rerun_d:
        d_fake_for_g = D(fake)
    loss_g = F.softplus(-d_fake_for_g).mean() + 10.0 * F.l1_loss(F.avg_pool2d(fake, 4), F.avg_pool2d(clean, 4))
    opt_g.zero_grad()
    loss_g.backward()
    opt_g.step()
    return loss_d.item(), loss_g.item()


def make_models():
    torch.manual_seed(0)
    G, D = Generator(), PatchDiscriminator()
    return G, D, torch.optim.Adam(G.parameters(), lr=1e-3), torch.optim.Adam(D.parameters(), lr=1e-3)


clean = torch.rand(4, 3, 24, 24)
real_noisy = torch.rand(4, 3, 24, 24) + 0.1 * torch.randn(4, 3, 24, 24)

G, D, opt_g, opt_d = make_models()
try:
    train_step(G, D, opt_g, opt_d, clean, real_noisy, rerun_d=False)
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "modified by an inplace operation" in err, err
assert "[1, 32, 1, 1]" in err, err

G, D, opt_g, opt_d = make_models()
g0, d0 = G.body[0].weight.detach().clone(), D.classifier.weight.detach().clone()
for _ in range(5):
    train_step(G, D, opt_g, opt_d, clean, real_noisy, rerun_d=True)
assert not torch.equal(g0, G.body[0].weight) and not torch.equal(d0, D.classifier.weight)
print("p11 ok: discriminator step between forward and generator backward trips the version check")
