"""
expect: GL005 48
dynamic: confirm
source: https://github.com/cy-xu/simple_CycleGAN/issues/3

The report: the simple CycleGAN trainer fails on PyTorch 1.5+ with "one of the variables
needed for gradient computation has been modified by an inplace operation ... [3, 64, 7, 7]
is at version 3"; quoting albanD, the cause is discriminator parameters being updated in
place while still needed afterwards. This program rebuilds a one-direction CycleGAN step in
which the generator's adversarial and cycle losses and the discriminator's loss are all built
first, the discriminator optimizer steps, and then the generator loss is backpropagated
through the (now modified) discriminator. The asserts catch the RuntimeError mentioning
"inplace" and check the generator-then-discriminator order trains both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def gen():
    return nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 3, 3, padding=1), nn.Tanh())


class CycleStep:
    def __init__(self):
        self.g_ab, self.g_ba = gen(), gen()
        self.d_b = nn.Sequential(nn.Conv2d(3, 8, 4, stride=2, padding=1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 3, padding=1))
        self.opt_g = torch.optim.Adam(list(self.g_ab.parameters()) + list(self.g_ba.parameters()), lr=2e-4)
        self.opt_d = torch.optim.Adam(self.d_b.parameters(), lr=2e-4)

    def losses(self, real_a, real_b):
        fake_b = self.g_ab(real_a)
        rec_a = self.g_ba(fake_b)
        pred_fake = self.d_b(fake_b)
        g_loss = F.mse_loss(pred_fake, torch.ones_like(pred_fake)) + 10 * F.l1_loss(rec_a, real_a)
        pred_real = self.d_b(real_b)
        pred_fake_d = self.d_b(fake_b.detach())
        d_loss = 0.5 * (F.mse_loss(pred_real, torch.ones_like(pred_real)) +
                        F.mse_loss(pred_fake_d, torch.zeros_like(pred_fake_d)))
        return g_loss, d_loss

    def step_disc_first(self, real_a, real_b):
        g_loss, d_loss = self.losses(real_a, real_b)
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()

    def step_gen_first(self, real_a, real_b):
        g_loss, d_loss = self.losses(real_a, real_b)
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()


real_a, real_b = torch.rand(2, 3, 16, 16) * 2 - 1, torch.rand(2, 3, 16, 16) * 2 - 1
trainer = CycleStep()
raised = False
try:
    trainer.step_disc_first(real_a, real_b)
except RuntimeError as err:
    raised = "inplace" in str(err)
assert raised

trainer = CycleStep()
g0 = [p.detach().clone() for p in trainer.g_ab.parameters()]
d0 = [p.detach().clone() for p in trainer.d_b.parameters()]
trainer.step_gen_first(real_a, real_b)
assert any(not torch.equal(a, b) for a, b in zip(g0, trainer.g_ab.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(d0, trainer.d_b.parameters()))
print("ok: discriminator step before generator backward raises the in-place error")
