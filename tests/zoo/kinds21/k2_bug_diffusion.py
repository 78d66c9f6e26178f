"""
expect: GL002 52
dynamic: confirm
source: kinds check 21, kind 2 (written for this check)

Improved-DDPM style hybrid loss: the denoiser predicts the noise and a per-pixel
log-variance; L_simple trains the noise head and the weighted variational term is
meant to train the variance head. The variational term goes through float() before
it is weighted, so it adds a constant and the variance head gets no gradient. The
asserts show the variance head's grad is None, that every gradient is identical with
the term's weight 0 and 1, and that the tensor term does reach the variance head.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS = 100
ALPHA_BAR = torch.cumprod(1 - torch.linspace(1e-4, 0.02, T_STEPS), 0)


class Denoiser(nn.Module):
    def __init__(self, dim=16, hid=64):
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(dim + 1, hid), nn.SiLU(),
                                   nn.Linear(hid, hid), nn.SiLU())
        self.eps_head = nn.Linear(hid, dim)
        self.logvar_head = nn.Linear(hid, dim)

    def forward(self, x_t, t):
        h = self.trunk(torch.cat([x_t, t[:, None].float() / T_STEPS], 1))
        return self.eps_head(h), self.logvar_head(h)


def noised(x0, generator):
    t = torch.randint(0, T_STEPS, (x0.shape[0],), generator=generator)
    noise = torch.randn(x0.shape, generator=generator)
    ab = ALPHA_BAR[t][:, None]
    return ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t, noise


def gaussian_nll(target, mean, logvar):
    return 0.5 * (logvar + (target - mean) ** 2 * torch.exp(-logvar) + math.log(2 * math.pi))


def hybrid_loss(model, x0, lam=1e-3, seed=0):
    x_t, t, noise = noised(x0, torch.Generator().manual_seed(seed))
    eps, logvar = model(x_t, t)
    l_simple = F.mse_loss(eps, noise)
    l_vlb = gaussian_nll(noise, eps, logvar).mean()
    return l_simple + lam * float(l_vlb)


def grads_of(model, loss):
    model.zero_grad()
    loss.backward()
    return {n: None if p.grad is None else p.grad.clone() for n, p in model.named_parameters()}


if __name__ == "__main__":
    torch.manual_seed(3)
    model, x0 = Denoiser(), torch.randn(32, 16)
    g0 = grads_of(model, hybrid_loss(model, x0, lam=0.0))
    g1 = grads_of(model, hybrid_loss(model, x0, lam=1.0))
    for name in g0:
        assert (g0[name] is None) == (g1[name] is None), name
        assert g0[name] is None or torch.equal(g0[name], g1[name]), name
    assert all(p.grad is None for p in model.logvar_head.parameters())
    # fixed variant: keeping the term a tensor trains the variance head
    x_t, t, noise = noised(x0, torch.Generator().manual_seed(0))
    eps, logvar = model(x_t, t)
    fixed = F.mse_loss(eps, noise) + 1e-3 * gaussian_nll(noise, eps, logvar).mean()
    grads_of(model, fixed)
    assert all(p.grad.abs().sum() > 0 for p in model.logvar_head.parameters())
    print("ok: float() drops the variational term; variance head starved")
