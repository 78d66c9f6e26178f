"""expect: none
dynamic: dismiss
source: https://github.com/sdv-dev/CTGAN/issues/37

Look-alike. CTGAN (GAN for tabular data, WGAN-GP critic) calls
`pen.backward(retain_graph=True)` and then `loss_d.backward()` in every
critic step. An issue asked why the gradient-penalty graph is retained; the
maintainer explained that a second backward pass follows through the same
graph. Both losses share the generator output (the critic step does not
detach `fake`), so the first backward must keep the shared part alive; the
second, un-retained backward frees it at the end of the step. Nothing is
carried into the next iteration: each step builds a fresh graph and the old
one is released, so memory stays flat. Correct use of retain_graph.
"""
import gc
import weakref

import torch
import torch.nn as nn
import torch.nn.functional as F

CONT, CAT = 2, 3          # two continuous columns, one categorical column with 3 levels


class Generator(nn.Module):
    def __init__(self, z_dim=8, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, hidden), nn.ReLU(), nn.Linear(hidden, CONT + CAT))

    def forward(self, z):
        return self.net(z)


def apply_activate(raw):
    cont = torch.tanh(raw[:, :CONT])
    cat = F.gumbel_softmax(raw[:, CONT:], tau=0.2)
    return torch.cat([cont, cat], 1)


class Discriminator(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(CONT + CAT, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x)

    def calc_gradient_penalty(self, real, fake, lambda_=10.0):
        alpha = torch.rand(real.shape[0], 1)
        interpolates = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
        out = self(interpolates)
        grads = torch.autograd.grad(out, interpolates, torch.ones_like(out),
                                    create_graph=True, retain_graph=True)[0]
        return ((grads.norm(2, dim=1) - 1) ** 2).mean() * lambda_


def fit(gen, disc, opt_g, opt_d, real_rows, steps=4, batch=16):
    probes = []
    for step in range(steps):
        real = real_rows[torch.randint(0, len(real_rows), (batch,))]
        fake = apply_activate(gen(torch.randn(batch, 8)))
        probes.append(weakref.ref(fake))
        y_fake, y_real = disc(fake), disc(real)
        pen = disc.calc_gradient_penalty(real, fake)
        loss_d = -(y_real.mean() - y_fake.mean())
        opt_d.zero_grad()
        pen.backward(retain_graph=True)
        loss_d.backward()
        opt_d.step()

        fake = apply_activate(gen(torch.randn(batch, 8)))
        loss_g = -disc(fake).mean()
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
    return probes


torch.manual_seed(0)
real_rows = torch.cat([torch.randn(64, CONT).tanh(), F.one_hot(torch.randint(0, CAT, (64,)), CAT).float()], 1)
gen, disc = Generator(), Discriminator()
opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.9))
opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.9))
probes = fit(gen, disc, opt_g, opt_d, real_rows)
gc.collect()

# no step's graph outlives its iteration: the retained graphs were all released
assert all(p() is None for p in probes)
assert all(p.grad is not None for p in disc.parameters())
assert all(p.grad is not None for p in gen.parameters())

# and the retain is genuinely needed: both backwards share the generator branch
fake = apply_activate(gen(torch.randn(16, 8)))
pen, loss_d = disc.calc_gradient_penalty(real_rows[:16], fake), -disc(real_rows[:16]).mean() + disc(fake).mean()
pen.backward()
try:
    loss_d.backward()
    raise AssertionError("expected the shared graph to be freed")
except RuntimeError as err:
    assert "second time" in str(err)
print("OK")
