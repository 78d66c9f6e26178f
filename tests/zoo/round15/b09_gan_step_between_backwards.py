"""
expect: GL005 40
dynamic: confirm
source: https://github.com/PeizhuoLi/ganimator/issues/5

The reporter got "one of the variables needed for gradient computation has been modified by an
inplace operation" from `loss_total.backward(retain_graph=True)` in the generator update of a GAN
trained stage by stage. This program rebuilds the model class: `forward` runs the generator and
scores the fake sample with the discriminator once, `backward_D` steps the discriminator optimizer,
and `backward_G` then backpropagates the adversarial loss through the discriminator activations that
were recorded before that step. The optimizer's in-place update bumps the version of a saved
discriminator weight and backward raises a RuntimeError mentioning "inplace"; re-scoring the fake
after the discriminator step trains both networks without error.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class MotionGAN:
    def __init__(self, frames=16, joints=6, rescore_after_d_step=False):
        self.G = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, frames * joints))
        self.D = nn.Sequential(nn.Linear(frames * joints, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.opt_G = torch.optim.Adam(self.G.parameters(), lr=1e-3)
        self.opt_D = torch.optim.Adam(self.D.parameters(), lr=1e-3)
        self.rescore = rescore_after_d_step

    def forward(self, noise):
        self.fake = self.G(noise)
        self.pred_fake = self.D(self.fake)

    def backward_D(self, real):
        self.opt_D.zero_grad()
        pred_real = self.D(real)
        pred_fake = self.D(self.fake.detach())
        loss_D = F.softplus(-pred_real).mean() + F.softplus(pred_fake).mean()
        loss_D.backward()
        self.opt_D.step()

    def backward_G(self, real):
        self.opt_G.zero_grad()
        pred_fake = self.D(self.fake) if self.rescore else self.pred_fake
        loss_adv = F.softplus(-pred_fake).mean()
        loss_rec = F.mse_loss(self.fake, real)
        loss_total = loss_adv + 0.1 * loss_rec
        loss_total.backward(retain_graph=True)
        self.opt_G.step()

    def optimize_parameters(self, noise, real):
        self.forward(noise)
        self.backward_D(real)
        self.backward_G(real)


noise = torch.randn(4, 8)
real = torch.randn(4, 96)

gan = MotionGAN()
try:
    gan.optimize_parameters(noise, real)
    raise AssertionError("expected the in-place version check to fire")
except RuntimeError as err:
    assert "inplace" in str(err), err

ok = MotionGAN(rescore_after_d_step=True)
g0 = [p.detach().clone() for p in ok.G.parameters()]
for _ in range(3):
    ok.optimize_parameters(noise, real)
assert all(not torch.equal(a, b.detach()) for a, b in zip(g0, ok.G.parameters()))
print("ok: D optimizer step between scoring and G backward trips the version check")
