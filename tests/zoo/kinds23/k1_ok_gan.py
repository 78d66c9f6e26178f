"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 1 (written for this check)

A conditional GAN whose conditioning code comes from a pretrained encoder whose output is cut with .detach().
The encoder's parameters are only ever held by a placeholder SGD(lr=0.0), and that variable is rebound to the
generator's Adam before training, so nothing steps the encoder and nothing is starved. The fake batch is also
detached for the discriminator step (the usual GAN cut) while the generator gets its own adversarial loss.
The asserts show every generator and discriminator weight gets a nonzero gradient and the encoder never moves.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
NOISE, CODE, DATA = 8, 4, 16

cond_encoder = nn.Sequential(nn.Linear(DATA, 32), nn.Tanh(), nn.Linear(32, CODE))
generator = nn.Sequential(nn.Linear(NOISE + CODE, 32), nn.ReLU(), nn.Linear(32, DATA))
critic = nn.Sequential(nn.Linear(DATA + CODE, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

# placeholder so the checkpoint loader has something to restore into; rebound below
g_opt = torch.optim.SGD(cond_encoder.parameters(), lr=0.0)
g_opt = torch.optim.Adam(generator.parameters(), lr=2e-4, betas=(0.5, 0.999))
d_opt = torch.optim.Adam(critic.parameters(), lr=2e-4, betas=(0.5, 0.999))

encoder_snapshot = [p.detach().clone() for p in cond_encoder.parameters()]


def gan_step(real):
    code = cond_encoder(real).detach()
    fake = generator(torch.cat([torch.randn(real.size(0), NOISE), code], dim=1))

    d_real = critic(torch.cat([real, code], dim=1))
    d_fake = critic(torch.cat([fake.detach(), code], dim=1))
    d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
    d_opt.zero_grad()
    d_loss.backward()
    d_grads = [p.grad.abs().sum().item() for p in critic.parameters()]
    d_opt.step()

    g_loss = F.softplus(-critic(torch.cat([fake, code], dim=1))).mean()
    g_opt.zero_grad()
    g_loss.backward()
    g_grads = [p.grad.abs().sum().item() for p in generator.parameters()]
    g_opt.step()
    return d_grads, g_grads


for it in range(5):
    batch = torch.randn(32, DATA) * 0.5 + 1.0
    d_grads, g_grads = gan_step(batch)
    assert all(g > 0 for g in d_grads), d_grads
    assert all(g > 0 for g in g_grads), g_grads

# the encoder is frozen by design: no grads, no steps, no movement
assert all(p.grad is None for p in cond_encoder.parameters())
assert all(torch.equal(a, b) for a, b in zip(encoder_snapshot, cond_encoder.parameters()))
print("ok: generator and critic train; frozen conditioning encoder untouched")
