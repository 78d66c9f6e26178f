"""
expect: GL001 33
dynamic: confirm
source: kinds check 32, kind 2

Small GAN on 1-D sensor traces. The generator's own step scores
disc(fake.detach()), so the adversarial loss never reaches the generator;
its optimizer steps right after backward and the generator never moves.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

gen = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 12))
disc = nn.Sequential(nn.Linear(12, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_g = torch.optim.Adam(gen.parameters(), lr=1e-2)
opt_d = torch.optim.Adam(disc.parameters(), lr=1e-2)
bce = nn.BCEWithLogitsLoss()
real = torch.sin(torch.linspace(0, 6.28, 12)).repeat(32, 1) + 0.05 * torch.randn(32, 12)
before = [p.detach().clone() for p in gen.parameters()]

for step in range(5):
    z = torch.randn(32, 4)
    fake = gen(z)

    opt_d.zero_grad()
    d_loss = bce(disc(real), torch.ones(32, 1)) + bce(disc(fake.detach()), torch.zeros(32, 1))
    d_loss.backward()
    opt_d.step()

    opt_g.zero_grad()
    g_score = disc(fake.detach())
    g_loss = bce(g_score, torch.ones(32, 1))
    g_loss.backward()
    opt_g.step()

for p, q in zip(gen.parameters(), before):
    assert p.grad is None or torch.all(p.grad == 0)
    assert torch.equal(p, q)
print("ok: generator unchanged")
