"""
expect: none
dynamic: dismiss
source: kind 10

A mel-frame GAN's discriminator step samples fakes under torch.no_grad(),
then switches requires_grad_() on them because the gradient-penalty helper
takes torch.autograd.grad of the discriminator output w.r.t. its input. The
generator step generates with grad. The asserts show the penalty is non-zero
and reaches D, and both D and G get gradients and change.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def grad_penalty(D, x):
    out = D(x)
    (g,) = torch.autograd.grad(out.sum(), x, create_graph=True)
    return g.pow(2).sum(dim=1).mean()


class MelFrameGAN:
    def __init__(self, z_dim=16, n_mels=40, gamma=1.0):
        self.z_dim, self.gamma = z_dim, gamma
        self.G = nn.Sequential(nn.Linear(z_dim, 64), nn.ReLU(), nn.Linear(64, n_mels))
        self.D = nn.Sequential(nn.Linear(n_mels, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
        self.opt_g = torch.optim.Adam(self.G.parameters(), lr=1e-3, betas=(0.0, 0.99))
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=1e-3, betas=(0.0, 0.99))

    def d_step(self, real):
        with torch.no_grad():
            fake = self.G(torch.randn(len(real), self.z_dim))
        fake.requires_grad_()
        gp = grad_penalty(self.D, fake)
        loss = (F.softplus(-self.D(real)).mean() + F.softplus(self.D(fake)).mean()
                + self.gamma * gp)
        self.opt_d.zero_grad()
        loss.backward()
        assert gp.item() > 0 and self.D[0].weight.grad.abs().sum() > 0
        self.opt_d.step()

    def g_step(self, batch):
        fake = self.G(torch.randn(batch, self.z_dim))
        loss = F.softplus(-self.D(fake)).mean()
        self.opt_g.zero_grad()
        loss.backward()
        assert self.G[0].weight.grad.abs().sum() > 0
        self.opt_g.step()


if __name__ == "__main__":
    torch.manual_seed(18)
    gan = MelFrameGAN()
    real = torch.randn(64, 40) * 0.5 - 3.0  # log-mel-like frames
    g_before = gan.G[0].weight.detach().clone()
    d_before = gan.D[0].weight.detach().clone()
    fake_mean0 = gan.G(torch.randn(256, 16)).mean().item()
    for _ in range(300):
        gan.d_step(real)
        gan.g_step(64)
    fake_mean1 = gan.G(torch.randn(256, 16)).mean().item()
    assert not torch.equal(gan.G[0].weight, g_before)
    assert not torch.equal(gan.D[0].weight, d_before)
    assert abs(fake_mean1 + 3.0) < abs(fake_mean0 + 3.0), (fake_mean0, fake_mean1)
    print("ok: requires_grad_() on no_grad fakes only for D's gradient penalty")
