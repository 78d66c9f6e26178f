"""
expect: GL005 main.py:70
dynamic: confirm
source: none, invented

A small multi-resolution waveform GAN: one generator emits a coarse, a middle and a fine version of a signal,
each is upsampled to full length and scored by the same 1-D conv discriminator. The step function computes the
three adversarial generator terms up front and keeps them in a list, then trains the discriminator (its own
backward and Adam step), and only then hands the kept list to objectives.backprop_terms, which loops over the
terms calling backward. Each kept term saved the discriminator's conv weights, which the discriminator step has
overwritten in place, so the first backward in the helper fails and the generator never moves. The asserts
catch the "modified by an inplace operation" error and check the generator is unchanged; the generator-first
step (same helper, called before the discriminator steps) trains both networks.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from objectives import backprop_terms, hinge_d, hinge_g

torch.manual_seed(0)
torch.set_num_threads(1)

SIGNAL_LEN = 64
Z_DIM = 16


class MultiScaleGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(Z_DIM, 128), nn.LeakyReLU(0.2))
        self.heads = nn.ModuleList([nn.Linear(128, SIGNAL_LEN // s) for s in (4, 2, 1)])

    def forward(self, z):
        h = self.trunk(z)
        outs = []
        for head in self.heads:
            x = torch.tanh(head(h)).unsqueeze(1)
            outs.append(F.interpolate(x, size=SIGNAL_LEN, mode="linear", align_corners=False))
        return outs


class ConvDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv1d(1, 16, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
            nn.Conv1d(16, 32, 5, stride=2, padding=2), nn.LeakyReLU(0.2),
        )
        self.out = nn.Linear(32 * (SIGNAL_LEN // 4), 1)

    def forward(self, x):
        return self.out(self.body(x).flatten(1))


def real_batch(n=32):
    t = torch.linspace(0, 1, SIGNAL_LEN)
    freq = torch.randint(2, 6, (n, 1)).float()
    phase = torch.rand(n, 1) * 6.28
    return torch.sin(6.28 * freq * t + phase).unsqueeze(1)


def gan_step(gen, disc, g_opt, d_opt, real):
    fakes = gen(torch.randn(real.size(0), Z_DIM))
    scale_terms = [hinge_g(disc(f)) for f in fakes]

    d_loss = sum(hinge_d(disc(real), disc(f.detach())) for f in fakes)
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()

    g_values = backprop_terms(scale_terms, g_opt, weights=[0.5, 0.75, 1.0])
    return d_loss.item(), g_values


def gan_step_generator_first(gen, disc, g_opt, d_opt, real):
    fakes = gen(torch.randn(real.size(0), Z_DIM))
    scale_terms = [hinge_g(disc(f)) for f in fakes]
    g_values = backprop_terms(scale_terms, g_opt, weights=[0.5, 0.75, 1.0])

    d_loss = sum(hinge_d(disc(real), disc(f.detach())) for f in fakes)
    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    return d_loss.item(), g_values


def build():
    torch.manual_seed(0)
    gen, disc = MultiScaleGenerator(), ConvDiscriminator()
    g_opt = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.999))
    d_opt = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))
    return gen, disc, g_opt, d_opt


def main():
    gen, disc, g_opt, d_opt = build()
    g_start = [p.detach().clone() for p in gen.parameters()]
    try:
        gan_step(gen, disc, g_opt, d_opt, real_batch())
        raised = None
    except RuntimeError as exc:
        raised = str(exc)
    assert raised is not None and "modified by an inplace operation" in raised, raised
    assert all(torch.equal(p, p0) for p, p0 in zip(gen.parameters(), g_start))

    gen, disc, g_opt, d_opt = build()
    g_start = [p.detach().clone() for p in gen.parameters()]
    d_start = [p.detach().clone() for p in disc.parameters() if p.dim() > 1]
    for _ in range(30):
        gan_step_generator_first(gen, disc, g_opt, d_opt, real_batch())
    assert all(not torch.equal(p, p0) for p, p0 in zip(gen.parameters(), g_start))
    d_weights = [p for p in disc.parameters() if p.dim() > 1]
    assert all(not torch.equal(p, p0) for p, p0 in zip(d_weights, d_start))
    print("k02: generator-first step trains generator and discriminator")


if __name__ == "__main__":
    main()
