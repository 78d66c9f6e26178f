"""
expect: none
dynamic: dismiss
source: https://github.com/devnag/pytorch-generative-adversarial-networks/issues/14

The question points at the generator step of this 1-D GAN, `g_error.backward()` on
D(G(z)) with nothing detached, and asks whether it also trains the discriminator. It does not:
the backward fills D's .grad too, but only g_optimizer.step() is called and D's gradients are
zeroed before its own step. The discriminator step, for its part, uses a detached fake sample,
which is correct (the generator is not updated there). This program rebuilds the
sampler/generator/discriminator loop on a Gaussian target; the asserts show D's weights do not
change during the generator step, G's do, and the generator's samples move toward the target mean.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
DATA_MEAN, DATA_STD = 4.0, 1.25


def real_sampler(n):
    return torch.randn(n, 1) * DATA_STD + DATA_MEAN


def noise_sampler(n):
    return torch.rand(n, 1)


G = nn.Sequential(nn.Linear(1, 16), nn.ELU(), nn.Linear(16, 16), nn.ELU(), nn.Linear(16, 1))
D = nn.Sequential(nn.Linear(1, 16), nn.ELU(), nn.Linear(16, 1), nn.Sigmoid())
criterion = nn.BCELoss()
d_optimizer = torch.optim.SGD(D.parameters(), lr=1e-2, momentum=0.9)
g_optimizer = torch.optim.SGD(G.parameters(), lr=1e-2, momentum=0.9)


def train_d(batch=64):
    D.zero_grad()
    d_real = D(real_sampler(batch))
    d_real_error = criterion(d_real, torch.ones_like(d_real))
    d_real_error.backward()
    d_fake_data = G(noise_sampler(batch)).detach()
    d_fake = D(d_fake_data)
    d_fake_error = criterion(d_fake, torch.zeros_like(d_fake))
    d_fake_error.backward()
    d_optimizer.step()


def train_g(batch=64):
    G.zero_grad()
    g_fake_data = G(noise_sampler(batch))
    dg_fake = D(g_fake_data)
    g_error = criterion(dg_fake, torch.ones_like(dg_fake))
    g_error.backward()
    g_optimizer.step()
    return g_error.item()


start_mean = G(noise_sampler(1000)).mean().item()
for epoch in range(300):
    for _ in range(2):
        train_d()
    d_before = [p.detach().clone() for p in D.parameters()]
    g_before = [p.detach().clone() for p in G.parameters()]
    train_g()
    assert all(torch.equal(a, b) for a, b in zip(d_before, D.parameters()))
    assert any(not torch.equal(a, b) for a, b in zip(g_before, G.parameters()))
    assert all(p.grad is not None for p in G.parameters())

end_mean = G(noise_sampler(1000)).mean().item()
assert abs(end_mean - DATA_MEAN) < abs(start_mean - DATA_MEAN)
print(f"p14 ok: generator mean moved {start_mean:.2f} -> {end_mean:.2f}, D untouched by G step")
