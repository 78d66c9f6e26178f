"""
expect: GL001 19
dynamic: confirm
source: kinds check 20, kind 6 (written for this check)

A GAN generator step passes the generator's samples through `as_probe`, a
helper that returns `t.detach().requires_grad_()`, so the discriminator sees a
brand-new leaf and the generator loss never reaches the generator. The asserts
show the generator's weights get no gradient while the same loss on the
undetached samples gives them a nonzero one.
"""
import torch
import torch.nn as nn

torch.manual_seed(10)


def as_probe(t):
    return t.detach().requires_grad_()


gen = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 2))
disc = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
g_opt = torch.optim.Adam(gen.parameters(), lr=2e-4)
bce = nn.BCEWithLogitsLoss()


def generator_step(batch_size=64):
    noise = torch.randn(batch_size, 8)
    fake = as_probe(gen(noise))
    g_loss = bce(disc(fake), torch.ones(batch_size, 1))
    g_opt.zero_grad()
    g_loss.backward()
    g_opt.step()
    return noise


noise = generator_step()
assert all(p.grad is None for p in gen.parameters()), "generator starved"

ref = bce(disc(gen(noise)), torch.ones(64, 1))
grads = torch.autograd.grad(ref, list(gen.parameters()))
assert sum(g.abs().sum() for g in grads) > 0
print("ok: the new-leaf helper cut the generator off its loss")
