"""
expect: none
dynamic: dismiss
source: https://github.com/Yangyangii/DANN-pytorch/issues/1

The issue asks where the gradient reversal is, since the discriminator is
trained on `h.detach()`. The notebook trains DANN GAN-style: a discriminator
step on detached features (on purpose, so only D moves), then an encoder +
classifier step on `Lc - lambda * Ld` with the features NOT detached, which
plays the role of the reversed gradient. The asserts show the D step leaves
the encoder untouched, and the encoder step gives the encoder a gradient that
is exactly the class gradient minus lambda times the domain gradient.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 16))

    def forward(self, x):
        return self.net(x)


class DannTrainer:
    def __init__(self, enc, clf, disc, n_disc=2):
        self.E, self.C, self.D = enc, clf, disc
        self.n_disc = n_disc
        self.d_opt = torch.optim.Adam(disc.parameters(), lr=1e-3)
        self.ec_opt = torch.optim.Adam(list(enc.parameters()) + list(clf.parameters()), lr=1e-3)
        self.bce = nn.BCEWithLogitsLoss()
        self.xe = nn.CrossEntropyLoss()

    def disc_step(self, h, dom):
        for _ in range(self.n_disc):
            ld = self.bce(self.D(h.detach()), dom)
            self.D.zero_grad()
            ld.backward()
            self.d_opt.step()
        return ld

    def encoder_losses(self, h, ys, dom, n_src):
        lc = self.xe(self.C(h[:n_src]), ys)
        ld = self.bce(self.D(h), dom)
        return lc, ld

    def step(self, xs, ys, xt, lam):
        x = torch.cat([xs, xt])
        dom = torch.cat([torch.ones(len(xs), 1), torch.zeros(len(xt), 1)])
        h = self.E(x)
        self.disc_step(h, dom)
        lc, ld = self.encoder_losses(h, ys, dom, len(xs))
        total = lc - lam * ld
        self.E.zero_grad()
        self.C.zero_grad()
        total.backward()
        self.ec_opt.step()
        return lc, ld


E, C, D = Encoder(), nn.Linear(16, 3), nn.Sequential(nn.Linear(16, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
trainer = DannTrainer(E, C, D)
xs, ys, xt = torch.randn(12, 8), torch.randint(0, 3, (12,)), torch.randn(12, 8) + 1.0

# 1) the discriminator step must not touch the encoder
e_before = [p.detach().clone() for p in E.parameters()]
d_before = [p.detach().clone() for p in D.parameters()]
trainer.disc_step(E(torch.cat([xs, xt])), torch.cat([torch.ones(12, 1), torch.zeros(12, 1)]))
assert all(p.grad is None for p in E.parameters())
assert all(torch.equal(a, b) for a, b in zip(e_before, E.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(d_before, D.parameters()))

# 2) the encoder step: grad(E) == grad(Lc) - lam * grad(Ld), and Ld's part is non-zero
lam = 0.3
h = E(torch.cat([xs, xt]))
dom = torch.cat([torch.ones(12, 1), torch.zeros(12, 1)])
lc, ld = trainer.encoder_losses(h, ys, dom, 12)
params = list(E.parameters())
g_c = torch.autograd.grad(lc, params, retain_graph=True)
g_d = torch.autograd.grad(ld, params, retain_graph=True)
g_t = torch.autograd.grad(lc - lam * ld, params)
for a, b, c in zip(g_t, g_c, g_d):
    assert torch.allclose(a, b - lam * c, atol=1e-6)
assert sum(c.abs().sum().item() for c in g_d) > 1e-4

# 3) full training steps run and move the encoder
for _ in range(5):
    trainer.step(xs, ys, xt, lam)
assert any(not torch.equal(a, b) for a, b in zip(e_before, E.parameters()))
print("ok: D step detached on purpose; encoder gets reversed domain gradient")
