"""
expect: none
dynamic: dismiss
source: https://github.com/udacity/deep-learning-v2-pytorch/pull/306

A merged pull request to a DCGAN course notebook wraps the generator call
that produces fakes for the discriminator step in torch.no_grad(), since the
discriminator loss should not reach the generator; the author showed the
logged losses were unchanged. Here the trainer does the same: the D step
uses fakes made under no_grad, the G step makes fresh fakes with gradients.
The asserts show D's step leaves G's gradients empty, G's step trains G, and
the losses match a variant that uses fake.detach() instead.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)

Z, X, B = 8, 16, 32


def make_nets():
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(Z, 32), nn.ReLU(), nn.Linear(32, X), nn.Tanh())
    D = nn.Sequential(nn.Linear(X, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    return G, D


class GANTrainer:
    def __init__(self, G, D, use_no_grad=True):
        self.G, self.D = G, D
        self.opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
        self.use_no_grad = use_no_grad

    def d_step(self, real, z):
        if self.use_no_grad:
            with torch.no_grad():
                fake = self.G(z)
        else:
            fake = self.G(z).detach()
        ones, zeros = torch.ones(real.shape[0], 1), torch.zeros(real.shape[0], 1)
        d_loss = F.binary_cross_entropy_with_logits(self.D(real), ones) + \
            F.binary_cross_entropy_with_logits(self.D(fake), zeros)
        self.opt_d.zero_grad()
        self.opt_g.zero_grad()
        d_loss.backward()
        self.opt_d.step()
        return d_loss.item()

    def g_step(self, z):
        fake = self.G(z)
        g_loss = F.binary_cross_entropy_with_logits(self.D(fake), torch.ones(z.shape[0], 1))
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()


def run(use_no_grad):
    G, D = make_nets()
    tr = GANTrainer(G, D, use_no_grad)
    torch.manual_seed(1)
    g0 = G[0].weight.detach().clone()
    log = []
    for i in range(20):
        real = torch.randn(B, X) * 0.3 + 0.5
        z = torch.randn(B, Z)
        d = tr.d_step(real, z)
        if i == 0:
            assert all(p.grad is None for p in G.parameters())
        g = tr.g_step(torch.randn(B, Z))
        log.append((d, g))
    return G, log, g0


G, log_ng, g0 = run(True)
_, log_det, _ = run(False)
assert not torch.equal(g0, G[0].weight)
assert all(p.grad is not None for p in G.parameters())
assert all(abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) < 1e-6 for a, b in zip(log_ng, log_det))
print("ok: no_grad fakes for the D step; generator still trains through its own step")
