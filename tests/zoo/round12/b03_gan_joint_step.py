"""
expect: GL005 54
dynamic: confirm
source: https://github.com/ayu-22/BPPNet-Back-Projected-Pyramid-Network/issues/6

The report hit "one of the variables needed for gradient computation has been
modified by an inplace operation" while training the GAN; the maintainer explains
the generator and discriminator losses are computed together, the discriminator
is stepped first, and only then is the generator loss (which also runs through
the discriminator) backpropagated. This program rebuilds that trainer step. The
asserts show the discriminator weight saved by the fake-image forward has its
version bumped by optimizer_d.step(), and the generator backward then raises the
"modified by an inplace operation" error; recomputing the generator loss after
the discriminator update trains cleanly.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Dehazer(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 16))

    def forward(self, x):
        return self.net(x)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x):
        return self.net(x)


class PairTrainer:
    def __init__(self):
        self.gen, self.disc = Dehazer(), Critic()
        self.opt_g = torch.optim.Adam(self.gen.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(self.disc.parameters(), lr=1e-3)

    def step(self, hazy, clear):
        fake = self.gen(hazy)
        d_real, d_fake = self.disc(clear), self.disc(fake)
        ones, zeros = torch.ones_like(d_real), torch.zeros_like(d_real)
        loss_d = (F.binary_cross_entropy_with_logits(d_real, ones)
                  + F.binary_cross_entropy_with_logits(d_fake, zeros))
        loss_g = F.l1_loss(fake, clear) + F.binary_cross_entropy_with_logits(d_fake, ones)
        self.opt_d.zero_grad()
        loss_d.backward(retain_graph=True)
        self.opt_d.step()
        self.opt_g.zero_grad()
        loss_g.backward()
        self.opt_g.step()

    def step_fixed(self, hazy, clear):
        fake = self.gen(hazy)
        ones = torch.ones(hazy.shape[0], 1)
        loss_d = (F.binary_cross_entropy_with_logits(self.disc(clear), ones)
                  + F.binary_cross_entropy_with_logits(self.disc(fake.detach()), 0 * ones))
        self.opt_d.zero_grad()
        loss_d.backward()
        self.opt_d.step()
        loss_g = F.l1_loss(fake, clear) + F.binary_cross_entropy_with_logits(self.disc(fake), ones)
        self.opt_g.zero_grad()
        loss_g.backward()
        self.opt_g.step()


torch.manual_seed(0)
hazy, clear = torch.randn(8, 16), torch.randn(8, 16)
trainer = PairTrainer()
w_out = trainer.disc.net[2].weight
v0 = w_out._version
try:
    trainer.step(hazy, clear)
    raised = None
except RuntimeError as err:
    raised = str(err)
assert raised is not None and "inplace" in raised, raised
assert w_out._version > v0

fixed = PairTrainer()
before = [p.detach().clone() for p in fixed.gen.parameters()]
fixed.step_fixed(hazy, clear)
assert all(not torch.equal(a, p) for a, p in zip(before, fixed.gen.parameters()))
print("joint step raised:", raised.splitlines()[0][:90])
