"""
expect: none
dynamic: dismiss
source: none, invented

A toy DDPM on 2-D two-moons data whose MLP denoiser conditions every block on the timestep
with FiLM. The per-block conditioning vector comes from a conditional expression with two
different ops: cond = self.film(temb) if self.use_film else self.cond_table[t] (a Linear layer or
a lookup into a learned per-timestep table). The block then shifts the scale half in place,
cond[:, :width] += 1.0, so the scale is centred at one. Neither arm keeps its own output for
backward (the Linear saves its input and weight, the indexing saves only the indices), and the
multiply that uses cond comes after the edit, so the graph is intact. The asserts train both
configurations, check that the noise-prediction loss falls and that the FiLM Linear and the
conditioning table both receive non-zero gradients.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

T_STEPS = 50


def sinusoidal(t, dim=32):
    half = dim // 2
    freqs = torch.exp(-math.log(1000.0) * torch.arange(half) / half)
    ang = t.float()[:, None] * freqs[None]
    return torch.cat([ang.sin(), ang.cos()], -1)


class FiLMBlock(nn.Module):
    def __init__(self, width, temb_dim=32, use_film=True):
        super().__init__()
        self.lin = nn.Linear(width, width)
        self.norm = nn.LayerNorm(width, elementwise_affine=False)
        self.film = nn.Linear(temb_dim, 2 * width)
        self.cond_table = nn.Parameter(torch.zeros(T_STEPS, 2 * width))
        self.use_film = use_film
        self.width = width

    def forward(self, h, temb, t):
        cond = self.film(temb) if self.use_film else self.cond_table[t]
        cond[:, :self.width] += 1.0
        scale, shift = cond[:, :self.width], cond[:, self.width:]
        return h + F.silu(self.norm(self.lin(h)) * scale + shift)


class Denoiser(nn.Module):
    def __init__(self, width=64, depth=3, use_film=True):
        super().__init__()
        self.inp = nn.Linear(2, width)
        self.blocks = nn.ModuleList([FiLMBlock(width, use_film=use_film) for _ in range(depth)])
        self.out = nn.Linear(width, 2)

    def forward(self, x_t, t):
        temb = sinusoidal(t)
        h = self.inp(x_t)
        for blk in self.blocks:
            h = blk(h, temb, t)
        return self.out(h)


def two_moons(n):
    theta = torch.rand(n) * math.pi
    upper = torch.rand(n) < 0.5
    x = torch.where(upper, torch.cos(theta), 1 - torch.cos(theta))
    y = torch.where(upper, torch.sin(theta), 0.5 - torch.sin(theta))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2)


def train(use_film, steps=150):
    torch.manual_seed(0)
    betas = torch.linspace(1e-4, 0.2, T_STEPS)
    alpha_bar = torch.cumprod(1 - betas, 0)
    model = Denoiser(use_film=use_film)
    opt = torch.optim.Adam(model.parameters(), lr=2e-3)
    losses = []
    for _ in range(steps):
        x0 = two_moons(256)
        t = torch.randint(0, T_STEPS, (256,))
        eps = torch.randn_like(x0)
        ab = alpha_bar[t][:, None]
        x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * eps
        loss = F.mse_loss(model(x_t, t), eps)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return model, losses


def main():
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model, losses = train(use_film=True)
    assert model.blocks[0].film.weight.grad.abs().sum() > 0
    first, last = sum(losses[:10]) / 10, sum(losses[-10:]) / 10
    assert last < 0.85 * first, (first, last)

    model, losses2 = train(use_film=False)
    assert model.blocks[1].cond_table.grad.abs().sum() > 0
    first2, last2 = sum(losses2[:10]) / 10, sum(losses2[-10:]) / 10
    assert last2 < 0.85 * first2, (first2, last2)
    print("film denoiser: ok, %.3f -> %.3f (film), %.3f -> %.3f (table)" % (first, last, first2, last2))


if __name__ == "__main__":
    main()
