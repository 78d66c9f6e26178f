"""
expect: GL001 22
dynamic: confirm
source: kinds check 11, kind 2

A small GAN on flattened 8x8 image patches. The module-level helper
discriminator_terms() detaches the generator's fake patches so that the
discriminator loss does not train the generator; that part is correct. But the
helper also returns the discriminator's logits on those DETACHED fakes, and the
training step builds the generator's non-saturating loss from them. Because the
fakes were cut from the generator's graph, backpropagating the generator loss
reaches only the discriminator; every generator parameter keeps .grad None and
the generator optimizer step changes nothing. The detach in the helper is the
cut that the generator loss is trained through.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def discriminator_terms(disc, real, fake):
    fake_in = fake.detach()
    real_logit = disc(real)
    fake_logit = disc(fake_in)
    d_loss = F.binary_cross_entropy_with_logits(real_logit, torch.ones_like(real_logit)) \
        + F.binary_cross_entropy_with_logits(fake_logit, torch.zeros_like(fake_logit))
    return d_loss, fake_logit


def main():
    torch.manual_seed(2)
    gen = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 64), nn.Tanh())
    disc = nn.Sequential(nn.Linear(64, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
    g_opt = torch.optim.Adam(gen.parameters(), lr=1e-3)
    d_opt = torch.optim.Adam(disc.parameters(), lr=1e-3)
    real = torch.rand(16, 64) * 2 - 1
    z = torch.randn(16, 8)

    fake = gen(z)
    d_loss, fake_logit = discriminator_terms(disc, real, fake)
    g_loss = F.binary_cross_entropy_with_logits(fake_logit, torch.ones_like(fake_logit))

    g_before = [p.detach().clone() for p in gen.parameters()]
    g_opt.zero_grad()
    d_opt.zero_grad()
    g_loss.backward(retain_graph=True)
    assert all(p.grad is None for p in gen.parameters()), "generator got a gradient"
    assert all(p.grad is not None for p in disc.parameters())
    g_opt.step()
    assert all(torch.equal(a, b.detach()) for a, b in zip(g_before, gen.parameters()))

    d_opt.zero_grad()
    d_loss.backward()
    d_opt.step()
    assert all(p.grad is None for p in gen.parameters())
    print("k02 bug: generator loss %.3f left every generator .grad None" % g_loss.item())


if __name__ == "__main__":
    main()
