"""
expect: GL005 main.py:44
dynamic: confirm
source: https://github.com/zhampel/clusterGAN/issues/2

One ClusterGAN iteration as the repository's training loop writes it: generator and encoder share one
Adam optimizer, the discriminator scores the generated batch once, the generator/encoder loss is
backpropagated with retain_graph=True and optimizer_GE.step() updates the generator, and only then is the
discriminator loss, which reuses the same D(G(z)) output, backpropagated. The step edits the generator's
weights in place while the still-pending discriminator backward needs those saved weights, so from
PyTorch 1.5 on the second backward raises "modified by an inplace operation" (the issue reports exactly
this after upgrading). The program asserts the RuntimeError for the original order and shows that
detaching the generated batch for the discriminator update (the usual fix) trains both sides.
"""
import torch
import torch.nn.functional as F

from models import Discriminator, Encoder, Generator, sample_z

torch.manual_seed(0)
torch.set_num_threads(1)
g = torch.Generator().manual_seed(3)

generator, encoder, discriminator = Generator(), Encoder(), Discriminator()
ge_chain = list(generator.parameters()) + list(encoder.parameters())
optimizer_GE = torch.optim.Adam(ge_chain, lr=1e-3)
optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=1e-3)
real_imgs = torch.tanh(torch.randn(16, 12, generator=g))
betan, betac = 10.0, 10.0


def train_step(detach_for_d):
    optimizer_GE.zero_grad()
    zn, zc, zc_idx = sample_z(16, generator=g)
    gen_imgs = generator(zn, zc)
    D_gen = discriminator(gen_imgs)
    D_real = discriminator(real_imgs)

    enc_zn, enc_zc_logits = encoder(gen_imgs)
    valid = torch.ones(16, 1)
    ge_loss = F.binary_cross_entropy_with_logits(D_gen, valid) \
        + betan * F.mse_loss(enc_zn, zn) + betac * F.cross_entropy(enc_zc_logits, zc_idx)
    ge_loss.backward(retain_graph=True)
    optimizer_GE.step()

    optimizer_D.zero_grad()
    if detach_for_d:
        D_gen = discriminator(gen_imgs.detach())
    fake = torch.zeros(16, 1)
    d_loss = 0.5 * (F.binary_cross_entropy_with_logits(D_real, valid)
                    + F.binary_cross_entropy_with_logits(D_gen, fake))
    d_loss.backward()
    optimizer_D.step()
    return d_loss.item(), ge_loss.item()


try:
    train_step(detach_for_d=False)
    raise AssertionError("expected the discriminator backward to fail")
except RuntimeError as err:
    assert "modified by an inplace operation" in str(err), err

d_before = [p.detach().clone() for p in discriminator.parameters()]
g_before = [p.detach().clone() for p in generator.parameters()]
for _ in range(3):
    d_l, ge_l = train_step(detach_for_d=True)
assert any(not torch.equal(a, p) for a, p in zip(d_before, discriminator.parameters()))
assert any(not torch.equal(a, p) for a, p in zip(g_before, generator.parameters()))
print("original order rejected by the version check as expected; detached D update trains: d_loss=%.3f ge_loss=%.3f" % (d_l, ge_l))
