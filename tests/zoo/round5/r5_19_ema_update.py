"""source: https://github.com/openai/guided-diffusion/issues/26

Diffusion denoiser training with an exponential-moving-average copy of the weights. After each
optimizer step the helper updates the EMA parameters in place
(`targ.detach().mul_(rate).add_(src, alpha=1 - rate)`). The EMA copy is never part of a
training graph (it is only used for sampling under no_grad), so the in-place edits are safe.
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


def update_ema(target_params, source_params, rate=0.99):
    for targ, src in zip(target_params, source_params):
        targ.detach().mul_(rate).add_(src, alpha=1 - rate)


class Denoiser(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim + 1, 64), nn.SiLU(), nn.Linear(64, dim))

    def forward(self, x, t):
        return self.net(torch.cat([x, t[:, None]], dim=-1))


torch.manual_seed(0)
T = 50
alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.05, T), dim=0)
model = Denoiser()
ema_model = copy.deepcopy(model)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
ema_before = ema_model.net[0].weight.detach().clone()

for step in range(10):
    x0 = torch.randn(32, 8)
    t = torch.randint(0, T, (32,))
    noise = torch.randn_like(x0)
    ab = alpha_bar[t][:, None]
    x_t = ab.sqrt() * x0 + (1 - ab).sqrt() * noise
    loss = F.mse_loss(model(x_t, t.float() / T), noise)
    opt.zero_grad()
    loss.backward()
    assert all(p.grad is not None for p in model.parameters())
    opt.step()
    update_ema(ema_model.parameters(), model.parameters())

with torch.no_grad():
    sample = ema_model(torch.randn(4, 8), torch.ones(4))

assert not torch.equal(ema_model.net[0].weight, ema_before)
assert sample.shape == (4, 8)
print("ok: model trains, EMA tracks it")
