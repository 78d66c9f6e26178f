"""
expect: GL001 44
dynamic: confirm
source: none, invented

A small GAN learns to produce 2-D points on a ring. Each iteration the critic is
scored on real points and on a detached batch of fakes, and a helper turns those
scores into both the critic loss and the generator loss. The generator loss is
built from the critic's scores on the detached fakes, so no gradient can reach
the generator: after backward its parameters have grad None and its optimizer
step leaves the weights untouched, while the code looks like a normal GAN loop.
"""
import math

import torch
from torch import nn

torch.manual_seed(0)

generator = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 2))
critic = nn.Sequential(nn.Linear(2, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
gen_opt = torch.optim.Adam(generator.parameters(), lr=1e-3)
critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)


def ring_batch(n):
    angle = torch.rand(n) * 2 * math.pi
    return torch.stack([angle.cos(), angle.sin()], dim=1) * 2.0


def adversarial_losses(real_scores, fake_scores):
    critic_loss = fake_scores.mean() - real_scores.mean()
    gen_loss = -fake_scores.mean()
    return critic_loss, gen_loss


with torch.no_grad():
    start = [p.clone() for p in generator.parameters()]
for step in range(5):
    real = ring_batch(64)
    noise = torch.randn(64, 4)
    fake = generator(noise)
    real_scores = critic(real)
    fake_scores = critic(fake.detach())
    critic_loss, gen_loss = adversarial_losses(real_scores, fake_scores)

    gen_opt.zero_grad()
    gen_loss.backward(retain_graph=True)
    gen_opt.step()
    assert all(p.grad is None for p in generator.parameters())

    critic_opt.zero_grad()
    critic_loss.backward()
    critic_opt.step()

assert all(torch.equal(a, b) for a, b in zip(start, generator.parameters()))
print("generator never updated: bug reproduced")
