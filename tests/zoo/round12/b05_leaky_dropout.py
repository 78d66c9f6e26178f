"""
expect: GL005 29
dynamic: confirm
source: https://github.com/dreamgonfly/GAN-tutorial/issues/1

In this GAN tutorial, D_loss.backward() failed with "one of the variables needed
for gradient computation has been modified by an inplace operation"; the reply
says to drop inplace=True from the LeakyReLU and Dropout layers of the
Generator/Discriminator. This program rebuilds a discriminator where an in-place
LeakyReLU is followed by an in-place Dropout. The in-place LeakyReLU saves its
own output for backward, and the in-place Dropout then overwrites that tensor, so
the asserts show backward raising the "inplace" error; the same network without
inplace=True trains.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Discriminator(nn.Module):
    def __init__(self, use_inplace):
        super().__init__()
        if use_inplace:
            self.body = nn.Sequential(
                nn.Linear(784, 128),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Linear(128, 64),
                nn.LeakyReLU(0.2, inplace=True),
                nn.Dropout(0.3, inplace=True),
                nn.Linear(64, 1),
            )
        else:
            self.body = nn.Sequential(
                nn.Linear(784, 128), nn.LeakyReLU(0.2),
                nn.Linear(128, 64), nn.LeakyReLU(0.2), nn.Dropout(0.3),
                nn.Linear(64, 1),
            )

    def forward(self, x):
        return self.body(x)


def d_step(disc, opt, real, fake):
    opt.zero_grad()
    loss = (F.binary_cross_entropy_with_logits(disc(real), torch.ones(real.shape[0], 1))
            + F.binary_cross_entropy_with_logits(disc(fake), torch.zeros(fake.shape[0], 1)))
    loss.backward()
    opt.step()


torch.manual_seed(0)
real, fake = torch.rand(16, 784), torch.rand(16, 784)

disc = Discriminator(use_inplace=True)
try:
    d_step(disc, torch.optim.Adam(disc.parameters(), lr=2e-4), real, fake)
    err = None
except RuntimeError as e:
    err = str(e)
assert err is not None and "inplace" in err, err

ok = Discriminator(use_inplace=False)
w0 = ok.body[0].weight.detach().clone()
d_step(ok, torch.optim.Adam(ok.parameters(), lr=2e-4), real, fake)
assert not torch.equal(w0, ok.body[0].weight)
print("in-place D raised:", err.splitlines()[0][:80])
