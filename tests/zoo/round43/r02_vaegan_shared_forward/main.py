"""
expect: GL005 main.py:59
dynamic: confirm
source: https://github.com/hui-po-wang/Pytorch-VAE-GAN/issues/5

VAE-GAN step that runs the generator once (encoder -> reparameterise ->
decoder, plus the decoder on prior noise) and then trains three parts in turn
from that single forward: discriminator, decoder, encoder. Each backward keeps
the graph alive with retain_graph=True and each part's optimizer steps right
after its own backward. The decoder step rewrites the decoder weights in place
while the encoder loss still has to backpropagate through the decoder
activations recorded before that step, so the encoder backward fails with
"modified by an inplace operation". Computing every gradient before any of
the generator optimizers step lets the same schedule run.
"""
import torch
import torch.nn.functional as F

from vaegan import Discriminator, Generator

torch.manual_seed(0)
torch.set_num_threads(1)

Z = 4
G, D = Generator(64, Z), Discriminator(64)
opt_enc = torch.optim.RMSprop(G.encoder.parameters(), lr=3e-4)
opt_dec = torch.optim.RMSprop(G.decoder.parameters(), lr=3e-4)
opt_dis = torch.optim.RMSprop(D.parameters(), lr=3e-4)
gamma = 15.0


def losses_after_d_step(x):
    mean, logvar, rec_enc = G(x)
    rec_noise = G.decoder(torch.randn(x.size(0), Z))
    ones, zeros = torch.ones(x.size(0), 1), torch.zeros(x.size(0), 1)

    d_real, _ = D(x)
    d_rec, _ = D(rec_enc)
    d_noise, _ = D(rec_noise)
    dis_loss = F.binary_cross_entropy(d_real, ones) + F.binary_cross_entropy(d_rec, zeros) + F.binary_cross_entropy(d_noise, zeros)
    opt_dis.zero_grad()
    dis_loss.backward(retain_graph=True)
    opt_dis.step()

    d_rec, f_rec = D(rec_enc)
    d_noise, _ = D(rec_noise)
    _, f_real = D(x)
    rec_loss = ((f_rec - f_real.detach()) ** 2).mean()
    err_dec = gamma * rec_loss - F.binary_cross_entropy(d_rec, zeros) - F.binary_cross_entropy(d_noise, zeros)
    prior_loss = (-0.5 * (1 + logvar - mean.pow(2) - logvar.exp())).sum(1).mean()
    err_enc = prior_loss + rec_loss
    return err_dec, err_enc


def train_step_as_written(x):
    err_dec, err_enc = losses_after_d_step(x)
    opt_dec.zero_grad()
    err_dec.backward(retain_graph=True)
    opt_dec.step()
    opt_enc.zero_grad()
    err_enc.backward()
    opt_enc.step()


def train_step_grads_first(x):
    err_dec, err_enc = losses_after_d_step(x)
    enc_params, dec_params = list(G.encoder.parameters()), list(G.decoder.parameters())
    g_dec = torch.autograd.grad(err_dec, dec_params, retain_graph=True)
    g_enc = torch.autograd.grad(err_enc, enc_params)
    for p, g in zip(dec_params + enc_params, g_dec + g_enc):
        p.grad = g
    opt_dec.step()
    opt_enc.step()
    return g_enc


x = torch.tanh(torch.randn(16, 64))
try:
    train_step_as_written(x)
    raised = False
except RuntimeError as err:
    raised = "modified by an inplace operation" in str(err)
assert raised

enc_before = [p.detach().clone() for p in G.encoder.parameters()]
for _ in range(3):
    g_enc = train_step_grads_first(torch.tanh(torch.randn(16, 64)))
assert all(torch.isfinite(g).all() and g.abs().sum() > 0 for g in g_enc)
assert any(not torch.equal(b, p) for b, p in zip(enc_before, G.encoder.parameters()))
print("step-then-backward schedule raises; gradients-first schedule trains encoder and decoder")
