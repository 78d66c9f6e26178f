"""
expect: GL005 main.py:50
dynamic: confirm
source: https://github.com/lkhphuc/Anomaly-XRay-GANs/blob/becd82dfa838bd382306f8dd071743dff2c5c22b/alpha_trainer.py

alpha-GAN trainer (encoder E, generator G, image discriminator D, code
discriminator C). One forward produces z_hat = E(x), x_rec = G(z_hat),
x_gen = G(z) and all discriminator scores; then E, G, D and C are trained one
after another from that forward with retain_graph=True. The encoder optimizer
steps straight after the encoder backward, but the generator loss reuses the
same reconstruction terms, whose backward goes through G into E and needs E's
weights as they were at forward time. The generator backward therefore stops
with "modified by an inplace operation". Taking the E and G gradients before
either optimizer steps, and feeding D and C detached samples, trains all four.
"""
import torch
import torch.nn as nn

from nets import Codecriminator, Discriminator, Encoder, Generator

torch.manual_seed(0)
torch.set_num_threads(1)

Z = 6
E, G, D, C = Encoder(32, Z), Generator(32, Z), Discriminator(32), Codecriminator(Z)
e_optimizer = torch.optim.Adam(E.parameters(), 2e-4, betas=(0.5, 0.999))
g_optimizer = torch.optim.Adam(G.parameters(), 2e-4, betas=(0.5, 0.999))
d_optimizer = torch.optim.Adam(D.parameters(), 2e-4, betas=(0.5, 0.999))
c_optimizer = torch.optim.Adam(C.parameters(), 2e-4, betas=(0.5, 0.999))
l1, bce = nn.L1Loss(), nn.BCELoss()


def forward_all(x_real):
    z = torch.randn(x_real.size(0), Z)
    z_mean, z_logvar = E(x_real)
    z_hat = z_mean + z_logvar * torch.randn_like(z_mean)
    x_rec, x_gen = G(z_hat), G(z)
    return z, z_hat, x_rec, x_gen


def step_as_written(x_real):
    z, z_hat, x_rec, x_gen = forward_all(x_real)
    real, fake = torch.ones(x_real.size(0)), torch.zeros(x_real.size(0))
    d_rec, d_gen, c_z_hat = D(x_rec), D(x_gen), C(z_hat)

    e_optimizer.zero_grad()
    l1_loss = 0.01 * l1(x_real, x_rec)
    e_loss = l1_loss + bce(c_z_hat, real) - bce(c_z_hat, fake)
    e_loss.backward(retain_graph=True)
    e_optimizer.step()

    g_optimizer.zero_grad()
    g_loss = l1_loss + bce(d_rec, real) - bce(d_rec, fake) + bce(d_gen, real) - bce(d_gen, fake)
    g_loss.backward(retain_graph=True)
    g_optimizer.step()


def step_grads_first(x_real):
    z, z_hat, x_rec, x_gen = forward_all(x_real)
    real, fake = torch.ones(x_real.size(0)), torch.zeros(x_real.size(0))
    d_rec, d_gen, c_z_hat = D(x_rec), D(x_gen), C(z_hat)
    l1_loss = 0.01 * l1(x_real, x_rec)
    e_loss = l1_loss + bce(c_z_hat, real) - bce(c_z_hat, fake)
    g_loss = l1_loss + bce(d_rec, real) - bce(d_rec, fake) + bce(d_gen, real) - bce(d_gen, fake)
    e_params, g_params = list(E.parameters()), list(G.parameters())
    for p, g in zip(e_params, torch.autograd.grad(e_loss, e_params, retain_graph=True)):
        p.grad = g
    for p, g in zip(g_params, torch.autograd.grad(g_loss, g_params)):
        p.grad = g
    e_optimizer.step()
    g_optimizer.step()

    d_optimizer.zero_grad()
    d_loss = bce(D(x_real), real) + bce(D(x_rec.detach()), fake) + bce(D(x_gen.detach()), fake)
    d_loss.backward()
    d_optimizer.step()
    c_optimizer.zero_grad()
    c_loss = bce(C(z_hat.detach()), fake) + bce(C(z), real)
    c_loss.backward()
    c_optimizer.step()


data = torch.tanh(torch.randn(64, 32) * 0.8)
try:
    step_as_written(data[:16])
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised

nets = (E, G, D, C)
before = [[p.detach().clone() for p in n.parameters()] for n in nets]
for i in range(4):
    step_grads_first(data[16 * i:16 * (i + 1)])
for n, b in zip(nets, before):
    assert any(not torch.equal(p0, p) for p0, p in zip(b, n.parameters()))
print("E step before G backward raises; gradients-first step updates E, G, D and C")
