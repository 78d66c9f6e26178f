"""Toy atom-diffusion sampler with a token-representation accumulator.

Mirrors the structure of a Boltz-1 style AtomDiffusion.sample(): at every
denoising step the score network returns denoised coordinates and a per-token
single representation ``token_a``; an OutTokenFeatUpdate block folds the
sequence of token_a's into ``token_repr``, which later feeds the confidence
model. The accumulator is trained only through the confidence loss.
"""
import math

import torch
import torch.nn as nn


class ScoreModel(nn.Module):
    """One denoising call: (noisy coords, trunk single repr, sigma) -> (denoised, token_a)."""

    def __init__(self, d_token, d_atom):
        super().__init__()
        self.token_proj = nn.Linear(d_token + d_atom + 1, d_token)
        self.coord_out = nn.Linear(d_token, d_atom)

    def forward(self, coords_noisy, s_trunk, sigma, detach_token=False):
        sig = torch.full_like(coords_noisy[..., :1], math.log(sigma))
        a = torch.tanh(self.token_proj(torch.cat([s_trunk, coords_noisy, sig], -1)))
        denoised = coords_noisy - sigma * self.coord_out(a) / (1.0 + sigma)
        if detach_token:
            return denoised, a.detach()
        return denoised, a


class OutTokenFeatUpdate(nn.Module):
    def __init__(self, d_token, dim_fourier=8):
        super().__init__()
        self.norm_next = nn.LayerNorm(d_token)
        self.fourier = nn.Linear(1, dim_fourier)
        self.transition = nn.Linear(2 * d_token + dim_fourier, d_token)

    def forward(self, times, acc_a, next_a):
        next_a = self.norm_next(next_a)
        f = torch.cos(self.fourier(times)).expand(*acc_a.shape[:-1], -1)
        return acc_a + torch.tanh(self.transition(torch.cat([next_a, acc_a, f], -1)))


def sample(score_model, feat_update, s_trunk, d_atom, num_steps=4, detach_token=False):
    sigmas = torch.linspace(2.0, 0.1, num_steps + 1)
    coords = sigmas[0] * torch.randn(*s_trunk.shape[:-1], d_atom)
    token_repr = None
    for sigma, sigma_next in zip(sigmas[:-1].tolist(), sigmas[1:].tolist()):
        denoised, token_a = score_model(coords, s_trunk, sigma, detach_token=detach_token)
        if token_repr is None:
            token_repr = torch.zeros_like(token_a)
        t = torch.full((*s_trunk.shape[:-1], 1), 0.25 * math.log(sigma))
        token_repr = feat_update(t, token_repr, token_a)
        coords = denoised + (sigma_next / sigma) * (coords - denoised)
    return {"sample_atom_coords": coords, "diff_token_repr": token_repr}
