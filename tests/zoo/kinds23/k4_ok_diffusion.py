"""
expect: none
dynamic: dismiss
source: kinds check 23, kind 4 (written for this check)

A DDPM-style noise predictor for 2-D points: a ModuleList of Linear layers applied in an enumerate loop, where
every layer but the last adds a timestep embedding in place and then applies F.relu(..., inplace=True). Both
in-place ops land on a fresh Linear output that no backward saved (Linear saves its input, not its output), so
autograd is fine. The asserts show training steps run without error and every parameter gets a nonzero gradient.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def timestep_features(t, dim):
    freqs = torch.exp(-math.log(1000.0) * torch.arange(dim // 2) / (dim // 2))
    ang = t.float().unsqueeze(1) * freqs
    return torch.cat([ang.sin(), ang.cos()], dim=1)


class PointDenoiser(nn.Module):
    def __init__(self, width=64, depth=4, tdim=16):
        super().__init__()
        sizes = [2] + [width] * (depth - 1) + [2]
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
        self.t_proj = nn.ModuleList(nn.Linear(tdim, width) for _ in range(depth - 1))
        self.tdim = tdim

    def forward(self, x, t):
        temb = timestep_features(t, self.tdim)
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x += self.t_proj[i](temb)
                x = F.relu(x, inplace=True)
        return x


T = 100
betas = torch.linspace(1e-4, 0.02, T)
alpha_bar = torch.cumprod(1 - betas, dim=0)

torch.manual_seed(9)
net = PointDenoiser()
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for _ in range(5):
    angle = torch.rand(128) * 2 * math.pi
    x0 = torch.stack([angle.cos(), angle.sin()], dim=1)
    t = torch.randint(0, T, (128,))
    eps = torch.randn_like(x0)
    ab = alpha_bar[t].unsqueeze(1)
    xt = ab.sqrt() * x0 + (1 - ab).sqrt() * eps
    loss = F.mse_loss(net(xt, t), eps)
    opt.zero_grad()
    loss.backward()
    for name, p in net.named_parameters():
        assert p.grad is not None and p.grad.abs().sum() > 0, name
    opt.step()
print("ok: in-place time add and relu_ on Linear outputs; denoiser trains")
