"""
expect: GL005 51
dynamic: confirm
source: https://github.com/samet-akcay/skip-ganomaly/issues/18

Skip-GANomaly issue: users who added the generator's latent loss err_g_lat to
the discriminator loss got "one of the variables needed for gradient computation
has been modified by an inplace operation ... is at version 2; expected version 1".
The latent loss's graph runs through the generator, and optimizer_g.step() has
already rewritten the generator weights in place between the two backward calls.
This trainer class mirrors that order; the asserts show the version error is raised
and that recomputing the latent term for the D step instead trains both nets.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class Disc(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(16, 12), nn.LeakyReLU(0.2), nn.Linear(12, 8))
        self.cls = nn.Linear(8, 1)

    def forward(self, x):
        f = self.features(x)
        return self.cls(F.leaky_relu(f, 0.2)), f


class SkipGanomalyLike:
    def __init__(self, reuse_latent_in_d):
        self.netg = nn.Sequential(nn.Linear(16, 6), nn.Tanh(), nn.Linear(6, 16))
        self.netd = Disc()
        self.opt_g = torch.optim.Adam(self.netg.parameters(), lr=1e-3)
        self.opt_d = torch.optim.Adam(self.netd.parameters(), lr=1e-3)
        self.reuse_latent_in_d = reuse_latent_in_d

    def update_netg(self, x):
        self.fake = self.netg(x)
        pred_fake, feat_fake = self.netd(self.fake)
        _, feat_real = self.netd(x)
        err_adv = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
        err_con = F.l1_loss(self.fake, x)
        self.err_g_lat = F.mse_loss(feat_fake, feat_real)
        err_g = err_adv + 50.0 * err_con + self.err_g_lat
        self.opt_g.zero_grad()
        err_g.backward(retain_graph=True)
        self.opt_g.step()

    def update_netd(self, x):
        pred_real, feat_real = self.netd(x)
        pred_fake, feat_fake = self.netd(self.fake.detach())
        err_d = (F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real))
                 + F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake)))
        if self.reuse_latent_in_d:
            err_d = err_d + self.err_g_lat
        else:
            err_d = err_d + F.mse_loss(feat_fake, feat_real)
        self.opt_d.zero_grad()
        err_d.backward()
        self.opt_d.step()

    def optimize(self, x):
        self.update_netg(x)
        self.update_netd(x)


x = torch.randn(32, 16)

buggy = SkipGanomalyLike(reuse_latent_in_d=True)
msg = ""
try:
    buggy.optimize(x)
except RuntimeError as e:
    msg = str(e)
assert "modified by an inplace operation" in msg, msg

fixed = SkipGanomalyLike(reuse_latent_in_d=False)
d_before = [p.detach().clone() for p in fixed.netd.parameters()]
for _ in range(3):
    fixed.optimize(x)
assert any(not torch.equal(a, b) for a, b in zip(d_before, fixed.netd.parameters()))
print("ok: reused latent loss hits the weights optimizer_g.step() rewrote")
