"""expect: GL005 26
dynamic: confirm
source: https://github.com/buggyyang/CDC_compression/issues/1

Tiny DDPM noise-prediction network built from time-conditioned residual blocks. The block's
forward adds the skip connection in place (`h += x`) onto the output of a ReLU, which
autograd saved to compute the ReLU's gradient, so the first loss.backward() raises.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TimeResBlock(nn.Module):
    def __init__(self, ch, t_dim):
        super().__init__()
        self.norm = nn.GroupNorm(4, ch)
        self.conv1 = nn.Conv2d(ch, ch, 3, padding=1)
        self.conv2 = nn.Conv2d(ch, ch, 3, padding=1)
        self.time_proj = nn.Linear(t_dim, ch)

    def forward(self, x, t_emb):
        h = self.conv1(F.silu(self.norm(x)))
        h = h + self.time_proj(t_emb)[:, :, None, None]
        h = F.relu(self.conv2(h))
        h += x
        return h


class NoisePredictor(nn.Module):
    def __init__(self, ch=8, t_dim=16):
        super().__init__()
        self.t_dim = t_dim
        self.inp = nn.Conv2d(1, ch, 3, padding=1)
        self.blocks = nn.ModuleList([TimeResBlock(ch, t_dim), TimeResBlock(ch, t_dim)])
        self.out = nn.Conv2d(ch, 1, 3, padding=1)

    def time_embedding(self, t):
        freqs = torch.exp(-torch.arange(self.t_dim // 2) * 4.0 / self.t_dim)
        ang = t[:, None].float() * freqs[None]
        return torch.cat([ang.sin(), ang.cos()], dim=-1)

    def forward(self, x, t):
        emb, h = self.time_embedding(t), self.inp(x)
        for block in self.blocks:
            h = block(h, emb)
        return self.out(h)


torch.manual_seed(0)
T, raised = 100, False
alpha_bar = torch.cumprod(1 - torch.linspace(1e-4, 0.02, T), dim=0)
model = NoisePredictor()
opt = torch.optim.Adam(model.parameters(), lr=2e-4)

for step in range(3):
    x0, t = torch.randn(8, 1, 12, 12), torch.randint(0, T, (8,))
    noise, ab = torch.randn_like(x0), alpha_bar[t][:, None, None, None]
    loss = F.mse_loss(model(ab.sqrt() * x0 + (1 - ab).sqrt() * noise, t), noise)
    opt.zero_grad()
    try:
        loss.backward()
    except RuntimeError as err:
        assert "modified by an inplace operation" in str(err)
        raised = True
        break
    opt.step()

assert raised
print("ok: backward raised on in-place residual add")
