"""
expect: none
dynamic: dismiss
source: kind A

A small GAN over 8x8 "pixel tiles": the discriminator's step scores
forger(z).detach() as fake (correct, the forger is not trained there), and the
forger's own step scores forger(z) attached. Asserts: the discriminator step
leaves forger grads None and updates the discriminator; the forger step gives
the forger gradients and changes its weights.
"""
import torch
import torch.nn as nn

torch.manual_seed(2)

forger = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 64), nn.Sigmoid())
inspector = nn.Sequential(nn.Linear(64, 32), nn.LeakyReLU(0.1), nn.Linear(32, 1))
opt_f = torch.optim.Adam(forger.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_i = torch.optim.Adam(inspector.parameters(), lr=2e-3, betas=(0.5, 0.999))
loss_fn = nn.BCEWithLogitsLoss()

for it in range(4):
    tiles = (torch.rand(24, 64) > 0.5).float()
    z = torch.randn(24, 8)

    opt_i.zero_grad()
    opt_f.zero_grad()
    s_real = inspector(tiles)
    s_fake = inspector(forger(z).detach())
    loss_i = loss_fn(s_real, torch.ones_like(s_real)) + loss_fn(s_fake, torch.zeros_like(s_fake))
    w_i = [p.detach().clone() for p in inspector.parameters()]
    loss_i.backward()
    assert all(p.grad is None for p in forger.parameters())
    opt_i.step()
    assert any(not torch.equal(a, p) for a, p in zip(w_i, inspector.parameters()))

    opt_f.zero_grad()
    s_gen = inspector(forger(z))
    loss_f = loss_fn(s_gen, torch.ones_like(s_gen))
    w_f = [p.detach().clone() for p in forger.parameters()]
    loss_f.backward()
    assert all(p.grad is not None and p.grad.abs().sum() > 0 for p in forger.parameters())
    opt_f.step()
    assert any(not torch.equal(a, p) for a, p in zip(w_f, forger.parameters()))

print("ok: both models train in their own steps")
