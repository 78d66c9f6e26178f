"""BYOL pieces (online/target nets, EMA, loss) and a small energy net with Langevin sampling and DSM."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def byol_loss(pred, target):
    pred = F.normalize(pred, dim=-1)
    target = F.normalize(target, dim=-1)
    return -2 * (pred * target).sum(dim=-1).mean()


class Online(nn.Module):
    def __init__(self, d_in=20, d_feat=16, d_proj=8):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(d_in, 32), nn.ReLU(), nn.Linear(32, d_feat))
        self.proj = nn.Sequential(nn.Linear(d_feat, 32), nn.ReLU(), nn.Linear(32, d_proj))
        self.pred = nn.Sequential(nn.Linear(d_proj, 32), nn.ReLU(), nn.Linear(32, d_proj))

    def forward(self, x):
        feat = self.encoder(x)
        proj = self.proj(feat)
        return {"features": feat, "proj": proj, "pred": self.pred(proj)}


class EMA:
    def __init__(self, tau):
        self.tau = tau

    @torch.no_grad()
    def __call__(self, online, target):
        for mod in ("encoder", "proj"):
            for o, t in zip(getattr(online, mod).parameters(), getattr(target, mod).parameters()):
                t.data = self.tau * t.data + (1 - self.tau) * o.data


class EnergyNet(nn.Module):
    def __init__(self, z_dim=16, eta=1e-2, steps=20, sigma=0.1, delta=0.5):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 32), nn.LayerNorm(32), nn.SiLU(), nn.Linear(32, 1))
        self.eta, self.steps, self.sigma, self.delta = eta, steps, sigma, delta

    def forward(self, z):
        return self.net(z)

    def langevin(self, z):
        z = z.clone().detach()
        z.requires_grad_(True)
        for _ in range(self.steps):
            e = self(z).sum()
            g = -torch.autograd.grad(e, z)[0]
            z = z + self.eta * g.clamp(-self.delta, self.delta) + math.sqrt(2 * self.eta) * torch.randn_like(z)
            z = z.detach()
            z.requires_grad_(True)
        return z.detach()

    def dsm_loss(self, z):
        eps = torch.randn_like(z)
        z_hat = z + self.sigma * eps
        z_hat.requires_grad_(True)
        score = torch.autograd.grad(self(z_hat).sum(), z_hat, create_graph=True)[0]
        return 0.5 * (self.sigma * score - eps).pow(2).sum(dim=-1).mean()
