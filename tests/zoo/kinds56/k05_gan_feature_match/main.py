"""
expect: GL001 nets.py:33
dynamic: confirm
source: none, invented

A GAN on a 2-D ring of Gaussians where the generator is trained with the non-saturating loss plus
Salimans-style feature matching: the mean discriminator activations on fake samples should match
those on real samples.  The activations come from forward hooks that `Discriminator._keep` (in
nets.py) builds and registers on two LeakyReLU layers; the hook stores `output.clone().detach()`
into `self.taps`.  Because the stored activations are cut from the graph, the feature-matching
term is a constant for the generator: it adds nothing to the generator's gradient even though it
is part of `g_loss`.  The asserts show that the feature-matching term does not require grad and
that the generator gradients equal those of the adversarial term alone; a subclass whose hook keeps
the graph makes the term require grad, changes the generator gradients, and the matched feature
gap shrinks during training.
"""
import math

import torch
import torch.nn.functional as F

from nets import Discriminator, Generator

torch.manual_seed(0)
torch.set_num_threads(1)


class MatchingDiscriminator(Discriminator):
    def _keep(self, name):
        def hook(module, inputs, output):
            self.taps[name] = output
        return hook


def sample_ring(n, modes=8, radius=2.0):
    k = torch.randint(0, modes, (n,)).float()
    ang = 2 * math.pi * k / modes
    centers = torch.stack([radius * torch.cos(ang), radius * torch.sin(ang)], 1)
    return centers + 0.05 * torch.randn(n, 2)


def feature_gap(disc, real, fake):
    disc(real)
    real_feats = {k: v.mean(0) for k, v in disc.taps.items()}
    disc(fake)
    return sum(F.mse_loss(disc.taps[k].mean(0), real_feats[k].detach()) for k in real_feats)


def generator_grads(gen, loss):
    gen.zero_grad()
    loss.backward(retain_graph=True)
    return [p.grad.clone() for p in gen.parameters()]


def train(disc_cls, steps=150, fm_weight=5.0):
    torch.manual_seed(0)
    gen, disc = Generator(), disc_cls()
    opt_g = torch.optim.Adam(gen.parameters(), lr=1e-3, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=1e-3, betas=(0.5, 0.999))
    gaps = []
    for step in range(steps):
        real = sample_ring(128)
        fake = gen(torch.randn(128, 8))

        d_loss = F.softplus(-disc(real)).mean() + F.softplus(disc(fake.detach())).mean()
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()

        adv = F.softplus(-disc(fake)).mean()
        fm = feature_gap(disc, real, fake)
        g_loss = adv + fm_weight * fm
        if step == 0:
            first = (fm.requires_grad, generator_grads(gen, g_loss), generator_grads(gen, adv))
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        gaps.append(fm.item())
    return first, gaps


if __name__ == "__main__":
    (fm_req, g_total, g_adv), _ = train(Discriminator)
    assert not fm_req, "feature matching should be constant for the generator here"
    assert all(torch.equal(a, b) for a, b in zip(g_total, g_adv))

    (fm_req, g_total, g_adv), gaps = train(MatchingDiscriminator)
    assert fm_req
    assert any(not torch.allclose(a, b) for a, b in zip(g_total, g_adv))
    early, late = sum(gaps[:10]) / 10, sum(gaps[-10:]) / 10
    assert late < early, (early, late)
    print(f"k05: detached taps give no feature-matching gradient; attached taps: gap {early:.3f} -> {late:.3f}")
