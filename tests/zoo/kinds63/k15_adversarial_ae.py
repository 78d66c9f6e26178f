"""
expect: none
dynamic: dismiss
source: none, invented

An adversarial autoencoder: an encoder/decoder pair reconstructs 16-D data while a latent discriminator pushes
the codes towards a standard-normal prior. The autoencoder's objective is a weighted list of terms --
reconstruction and the adversarial term that goes through the shared latent discriminator -- and
`accumulate_grads(terms, weights)` does `(w * term).backward(retain_graph=True)` for each one. Here the helper
runs first: the autoencoder's terms are backpropagated while the discriminator's weights are still the ones
the graph was built on, then the discriminator's gradients are zeroed, its own loss (on detached codes) is
backpropagated and `disc_opt.step()` runs, and finally the autoencoder steps. No backward runs after a step on
weights it used. The asserts show the loop runs cleanly, the discriminator weights move, reconstruction error
falls, and the code distribution ends up close to unit variance.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

X_DIM, Z_DIM = 16, 2
mixing = torch.randn(Z_DIM + 2, X_DIM)


def data_batch(n=128):
    return torch.tanh(torch.randn(n, Z_DIM + 2) @ mixing)


def accumulate_grads(terms, weights):
    for term, w in zip(terms, weights):
        (w * term).backward(retain_graph=True)


encoder = nn.Sequential(nn.Linear(X_DIM, 64), nn.ReLU(), nn.Linear(64, Z_DIM))
decoder = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Linear(64, X_DIM))
latent_disc = nn.Sequential(nn.Linear(Z_DIM, 64), nn.ReLU(), nn.Linear(64, 1))
ae_opt = torch.optim.Adam([*encoder.parameters(), *decoder.parameters()], lr=1e-3)
disc_opt = torch.optim.Adam(latent_disc.parameters(), lr=5e-4)
disc_start = latent_disc[0].weight.detach().clone()

recon_hist = []
for step in range(1500):
    x = data_batch()
    z = encoder(x)
    recon = F.mse_loss(decoder(z), x)
    code_logit = latent_disc(z)
    adv = F.binary_cross_entropy_with_logits(code_logit, torch.ones_like(code_logit))
    terms, weights = [recon, adv], [1.0, 0.05]

    ae_opt.zero_grad()
    accumulate_grads(terms, weights)

    prior = torch.randn_like(z)
    p_logit, q_logit = latent_disc(prior), latent_disc(z.detach())
    disc_loss = F.binary_cross_entropy_with_logits(p_logit, torch.ones_like(p_logit)) + \
        F.binary_cross_entropy_with_logits(q_logit, torch.zeros_like(q_logit))
    disc_opt.zero_grad()
    disc_loss.backward()
    disc_opt.step()
    ae_opt.step()
    recon_hist.append(recon.item())

with torch.no_grad():
    codes = encoder(data_batch(4000))
assert not torch.equal(disc_start, latent_disc[0].weight)
assert sum(recon_hist[-50:]) / 50 < 0.5 * sum(recon_hist[:50]) / 50
assert (codes.std(0) - 1).abs().max() < 0.5, codes.std(0)
assert codes.mean(0).abs().max() < 0.5, codes.mean(0)
print(f"ok: AAE recon {recon_hist[0]:.3f} -> {recon_hist[-1]:.3f}, code std {codes.std(0).tolist()}")
