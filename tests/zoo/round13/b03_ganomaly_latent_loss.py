"""
expect: GL001 53
dynamic: confirm
source: https://github.com/samet-akcay/skip-ganomaly/issues/5

The report: in Skip-GANomaly the generator's latent loss err_g_lat compares discriminator
features of the real and the fake image, but the fake features come from forward_d(), which runs
the discriminator on `self.fake.detach()`; the reporter notes it cannot update the generator.
This program rebuilds the model class with forward_g/forward_d/backward_g/backward_d in the
repository's order. The asserts show the generator's gradient is the same with latent weight 1 or
0 (err_g_lat reaches only the discriminator, whose optimizer is not stepped in the G update),
while features taken from the live fake make the latent term change the generator's gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class UnetLikeG(nn.Module):
    def __init__(self, d=20):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d, 12), nn.ReLU())
        self.dec = nn.Linear(12 + d, d)

    def forward(self, x):
        return self.dec(torch.cat([self.enc(x), x], dim=1))  # skip connection


class FeatD(nn.Module):
    def __init__(self, d=20):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(d, 16), nn.LeakyReLU(0.2))
        self.head = nn.Linear(16, 1)

    def forward(self, x):
        feat = self.features(x)
        return torch.sigmoid(self.head(feat)), feat


class SkipGanomaly:
    def __init__(self, w_adv=1.0, w_con=50.0, w_lat=1.0, live_fake_features=False):
        self.netg, self.netd = UnetLikeG(), FeatD()
        self.optimizer_g = torch.optim.Adam(self.netg.parameters(), lr=2e-4)
        self.optimizer_d = torch.optim.Adam(self.netd.parameters(), lr=2e-4)
        self.w_adv, self.w_con, self.w_lat = w_adv, w_con, w_lat
        self.live_fake_features = live_fake_features

    def forward_g(self):
        self.fake = self.netg(self.input)

    def forward_d(self):
        self.pred_real, self.feat_real = self.netd(self.input)
        self.pred_fake, self.feat_fake = self.netd(self.fake.detach())

    def backward_g(self):
        pred_fake_g, feat_fake_g = self.netd(self.fake)
        self.err_g_adv = F.binary_cross_entropy(pred_fake_g, torch.ones_like(pred_fake_g))
        self.err_g_con = F.l1_loss(self.fake, self.input)
        feat_fake = feat_fake_g if self.live_fake_features else self.feat_fake
        self.err_g_lat = F.mse_loss(feat_fake, self.feat_real)
        self.err_g = self.w_adv * self.err_g_adv + self.w_con * self.err_g_con + self.w_lat * self.err_g_lat
        self.err_g.backward(retain_graph=True)

    def backward_d(self):
        err_real = F.binary_cross_entropy(self.pred_real, torch.ones_like(self.pred_real))
        err_fake = F.binary_cross_entropy(self.pred_fake, torch.zeros_like(self.pred_fake))
        self.err_d = err_real + err_fake
        self.err_d.backward()

    def optimize_params(self, x):
        self.input = x
        self.forward_g()
        self.forward_d()
        self.optimizer_g.zero_grad()
        self.backward_g()
        g_grad = torch.cat([p.grad.flatten().clone() for p in self.netg.parameters()])
        self.optimizer_g.step()
        self.optimizer_d.zero_grad()
        self.backward_d()
        self.optimizer_d.step()
        return g_grad


def g_grad(w_lat, live):
    torch.manual_seed(0)
    model = SkipGanomaly(w_lat=w_lat, live_fake_features=live)
    x = torch.randn(16, 20)
    return model.optimize_params(x), model


g1, model = g_grad(1.0, live=False)
g0, _ = g_grad(0.0, live=False)
assert model.err_g_lat.requires_grad  # it has a graph, but only into the discriminator
assert torch.allclose(g1, g0), "latent loss does not move the generator"
h1, _ = g_grad(1.0, live=True)
h0, _ = g_grad(0.0, live=True)
assert not torch.allclose(h1, h0), "latent loss on live fake features reaches the generator"
print("ok: err_g_lat built from detached fake features gives the generator no gradient")
