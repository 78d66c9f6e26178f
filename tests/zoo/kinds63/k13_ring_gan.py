"""
expect: GL005 75
dynamic: confirm
source: none, invented

A small GAN on a 2-D ring-of-Gaussians dataset, with a generator objective made of several terms that all go
through the discriminator: the non-saturating adversarial loss and a feature-matching loss on the
discriminator's penultimate features. `train_step` runs the discriminator once on the fake batch, builds the
discriminator loss and the list of generator terms from that same pass, steps the discriminator, and then
hands the term list to `backprop_terms`, which does `(w * term).backward(retain_graph=True)` for each one
before the generator steps. The generator terms were built on the discriminator's pre-step weights, which
`d_opt.step()` has just overwritten in place, so the first term's backward hits saved tensors whose version
changed. The asserts catch that "modified by an inplace operation" error; with `rebuild_after_d_step=True` the
generator terms are recomputed after the discriminator step and the generator learns to cover the ring.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

Z_DIM = 8


def ring_batch(n=128, modes=8, radius=2.0):
    k = torch.randint(0, modes, (n,)).float()
    ang = 2 * math.pi * k / modes
    return torch.stack([radius * torch.cos(ang), radius * torch.sin(ang)], 1) + 0.05 * torch.randn(n, 2)


class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Linear(2, 64), nn.LeakyReLU(0.2), nn.Linear(64, 64), nn.LeakyReLU(0.2))
        self.score = nn.Linear(64, 1)

    def forward(self, x):
        f = self.features(x)
        return self.score(f), f


def backprop_terms(terms, weights):
    for term, w in zip(terms, weights):
        (w * term).backward(retain_graph=True)


def generator_terms(D, fake, real_feats):
    fake_logit, fake_feats = D(fake)
    adv = F.binary_cross_entropy_with_logits(fake_logit, torch.ones_like(fake_logit))
    fm = F.mse_loss(fake_feats.mean(0), real_feats.mean(0).detach())
    return [adv, fm]


def train(rebuild_after_d_step, iters=600):
    torch.manual_seed(0)
    G = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 2))
    D = Critic()
    g_opt = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.999))
    d_opt = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.999))
    weights = [1.0, 0.5]
    for it in range(iters):
        real = ring_batch()
        fake = G(torch.randn(real.shape[0], Z_DIM))
        real_logit, real_feats = D(real)
        fake_logit_d, _ = D(fake.detach())
        d_loss = F.binary_cross_entropy_with_logits(real_logit, torch.ones_like(real_logit)) + \
            F.binary_cross_entropy_with_logits(fake_logit_d, torch.zeros_like(fake_logit_d))
        terms = generator_terms(D, fake, real_feats)

        d_opt.zero_grad()
        d_loss.backward(retain_graph=True)
        d_opt.step()

        if rebuild_after_d_step:
            terms = generator_terms(D, fake, real_feats.detach())
        g_opt.zero_grad()
        backprop_terms(terms, weights)
        g_opt.step()
    return G


try:
    train(rebuild_after_d_step=False, iters=5)
    failure = None
except RuntimeError as e:
    failure = str(e)
assert failure is not None and "modified by an inplace operation" in failure, failure

G = train(rebuild_after_d_step=True)
with torch.no_grad():
    samples = G(torch.randn(2000, Z_DIM))
radius = samples.norm(dim=1)
assert abs(radius.mean().item() - 2.0) < 0.4, radius.mean()
print(f"ok: pre-step generator terms hit the in-place check (as claimed); rebuilt terms give mean radius {radius.mean():.2f}")
