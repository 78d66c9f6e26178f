"""
expect: GL001 30
dynamic: confirm
source: kinds check 33, kind 1

A spectrogram denoiser's loss function receives the encoder/decoder weights
and adds a group-sparsity penalty, but each weight is read through `.data`.
The penalty changes the loss value yet contributes no gradient at all.
"""
import torch
import torch.nn as nn

torch.manual_seed(0)


class Denoiser(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(32, 12)
        self.dec = nn.Linear(12, 32)

    def forward(self, spec):
        return self.dec(torch.relu(self.enc(spec)))


def denoise_loss(clean_hat, clean, weights, lam):
    recon = (clean_hat - clean).pow(2).mean()
    penalty = 0.0
    for w in weights:
        penalty = penalty + w.data.norm(dim=1).sum()
    return recon + lam * penalty


def grads_for(model, noisy, clean, lam):
    model.zero_grad()
    out = model(noisy)
    loss = denoise_loss(out, clean, [model.enc.weight, model.dec.weight], lam)
    loss.backward()
    return loss.item(), [p.grad.clone() for p in model.parameters()]


model = Denoiser()
noisy = torch.randn(20, 32)
clean = noisy * 0.5

l0, g0 = grads_for(model, noisy, clean, 0.0)
l1, g1 = grads_for(model, noisy, clean, 0.3)

assert l1 > l0 + 1e-3, "penalty should change the loss value"
assert all(torch.equal(a, b) for a, b in zip(g0, g1)), "penalty unexpectedly has a gradient"
print("ok: penalty adds", l1 - l0, "to the loss but nothing to the gradient")
