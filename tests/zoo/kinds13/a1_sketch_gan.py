"""
expect: GL001 30
dynamic: confirm
source: kind A

A tiny GAN learns a 1-D Gaussian; the painter (generator) and critic each have
their own Adam optimizer. In the painter's step the critic scores a cut-off
copy of the painter's samples, so the painter's loss has no path back to it.
Asserts: after that backward every painter parameter's .grad is None and its
weights are unchanged by the step; a fixed version of the step does train it.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)

painter = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))
critic = nn.Sequential(nn.Linear(1, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
opt_p = torch.optim.Adam(painter.parameters(), lr=1e-3)
opt_c = torch.optim.Adam(critic.parameters(), lr=1e-3)
bce = nn.BCEWithLogitsLoss()


def painter_step(noise, fixed=False):
    opt_p.zero_grad()
    samples = painter(noise)
    if fixed:
        verdict = critic(samples)
    else:
        verdict = critic(samples.detach())
    loss_p = bce(verdict, torch.ones_like(verdict))
    loss_p.backward()
    opt_p.step()
    return loss_p


for it in range(3):
    real = 2.0 + 0.5 * torch.randn(32, 1)
    noise = torch.randn(32, 4)
    # critic step
    opt_c.zero_grad()
    fake = painter(noise).detach()
    real_logit = critic(real)
    fake_logit = critic(fake)
    loss_c = bce(real_logit, torch.ones_like(real_logit)) + bce(fake_logit, torch.zeros_like(fake_logit))
    loss_c.backward()
    opt_c.step()

    before = [p.detach().clone() for p in painter.parameters()]
    painter_step(torch.randn(32, 4))
    assert all(p.grad is None for p in painter.parameters())
    assert all(torch.equal(b, p) for b, p in zip(before, painter.parameters()))

before = [p.detach().clone() for p in painter.parameters()]
painter_step(torch.randn(32, 4), fixed=True)
assert all(p.grad is not None for p in painter.parameters())
assert any(not torch.equal(b, p) for b, p in zip(before, painter.parameters()))
print("ok: painter never trains with the cut-off step; fixed step trains it")
