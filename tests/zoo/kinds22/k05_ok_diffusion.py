"""
expect: none
dynamic: dismiss
source: kinds check 22, kind 5 (written for this check)

A denoiser's noise-prediction head clips its prediction with a method that edits its
argument in place (clamp_), but the argument is a Linear output, which no recorded op
saved. The asserts show backward succeeds and every parameter gets a nonzero gradient.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EpsHead(nn.Module):
    def __init__(self, d=16, limit=4.0):
        super().__init__()
        self.proj = nn.Linear(d, d)
        self.limit = limit

    def clip_(self, eps):
        eps.clamp_(-self.limit, self.limit)
        return eps

    def forward(self, h):
        return self.clip_(self.proj(h))


class TinyDenoiser(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.t_embed = nn.Linear(1, d)
        self.body = nn.Sequential(nn.Linear(d, d), nn.SiLU())
        self.head = EpsHead(d)

    def forward(self, x_t, t):
        return self.head(self.body(x_t + self.t_embed(t[:, None])))


torch.manual_seed(10)
betas = torch.linspace(1e-4, 0.02, 100)
alpha_bar = torch.cumprod(1 - betas, 0)
x0 = torch.randn(32, 16)
t = torch.randint(0, 100, (32,))
noise = torch.randn_like(x0)
a = alpha_bar[t][:, None]
x_t = a.sqrt() * x0 + (1 - a).sqrt() * noise
model = TinyDenoiser()
F.mse_loss(model(x_t, t.float() / 100), noise).backward()
for name, p in model.named_parameters():
    assert p.grad is not None and p.grad.abs().sum() > 0, name
print("ok: every parameter trains")
