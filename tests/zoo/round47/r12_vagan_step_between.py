"""
expect: GL005 51
dynamic: confirm
source: https://github.com/fwt-team/VaGAN-pytorch/issues/1

A VAE-GAN with a Gaussian-mixture prior (VaGAN-style) encodes a batch, decodes it with the generator, and scores
real and decoded images with the discriminator once per iteration. The generator/encoder/GMM loss is backpropagated
with retain_graph=True and their optimizer steps immediately; the discriminator loss is then backpropagated
through the same D(fake) output, which still hangs off the generator, so backward needs the generator weights
that the step has just overwritten in place. The reported crash ("is at version 3752; expected version 3751")
is reproduced with try/except, and the assert on the fixed step (discriminator trained on a detached fake) shows
both players then update.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

X_DIM, Z_DIM, K = 20, 4, 3

encoder = nn.Sequential(nn.Linear(X_DIM, 32), nn.ReLU(), nn.Linear(32, 2 * Z_DIM))
gen = nn.Sequential(nn.Linear(Z_DIM, 32), nn.ReLU(), nn.Linear(32, X_DIM), nn.Sigmoid())
dis = nn.Sequential(nn.Linear(X_DIM, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1), nn.Sigmoid())
gmm_mu = nn.Parameter(torch.randn(K, Z_DIM))
gmm_logvar = nn.Parameter(torch.zeros(K, Z_DIM))

gen_enc_gmm_ops = torch.optim.Adam(list(gen.parameters()) + list(encoder.parameters()) + [gmm_mu, gmm_logvar], lr=1e-3)
dis_ops = torch.optim.Adam(dis.parameters(), lr=1e-3)


def gmm_loss(z_mu, z_logvar):
    # distance of the posterior mean to the closest mixture component, plus a variance term
    d = ((z_mu.unsqueeze(1) - gmm_mu.unsqueeze(0)) ** 2 / gmm_logvar.exp().unsqueeze(0)).sum(-1)
    return d.min(dim=1).values.mean() + 0.5 * (gmm_logvar.exp().mean() - z_logvar.mean())


def train_iteration(real, fixed):
    enc_out = encoder(real)
    z_mu, z_logvar = enc_out[:, :Z_DIM], enc_out[:, Z_DIM:]
    z = z_mu + torch.randn_like(z_mu) * (0.5 * z_logvar).exp()
    fake = gen(z)
    rec_loss = F.binary_cross_entropy(fake, real)
    d_real = dis(real)
    d_fake = dis(fake)

    gen_enc_gmm_ops.zero_grad()
    g_loss = torch.mean(-torch.log(d_fake + 1e-8)) + gmm_loss(z_mu, z_logvar) + rec_loss
    g_loss.backward(retain_graph=True)
    gen_enc_gmm_ops.step()

    dis_ops.zero_grad()
    if fixed:
        d_fake = dis(fake.detach())
    d_loss = torch.mean(-torch.log(d_real + 1e-8) - torch.log(1 - d_fake + 1e-8)) / 2
    d_loss.backward()
    dis_ops.step()
    return g_loss.item(), d_loss.item()


real = torch.rand(16, X_DIM).round()
gen_before = [p.detach().clone() for p in gen.parameters()]
try:
    train_iteration(real, fixed=False)
    message = None
except RuntimeError as err:
    message = str(err)
assert message is not None and "modified by an inplace operation" in message, message
assert any(not torch.equal(a, b) for a, b in zip(gen_before, gen.parameters()))
print("discriminator backward hit the generator weights the step had just changed")

dis_before = [p.detach().clone() for p in dis.parameters()]
gen_before = [p.detach().clone() for p in gen.parameters()]
for _ in range(3):
    train_iteration(torch.rand(16, X_DIM).round(), fixed=True)
assert any(not torch.equal(a, b) for a, b in zip(dis_before, dis.parameters()))
assert any(not torch.equal(a, b) for a, b in zip(gen_before, gen.parameters()))
print("with a detached fake for the discriminator both networks train")
