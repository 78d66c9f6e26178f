import torch
import torch.nn as nn
import torch.nn.functional as F


class LiLoRALinear(nn.Module):
    """A frozen base linear plus a low-rank delta whose factors come from a hypernetwork."""

    def __init__(self, d_in, d_out, rank=2):
        super().__init__()
        self.base = nn.Linear(d_in, d_out)
        self.base.requires_grad_(False)
        self.register_buffer("down", torch.zeros(rank, d_in))
        self.register_buffer("up", torch.zeros(d_out, rank))

    def update_weights(self, down, up):
        self.down.data.copy_(down)
        self.up.data.copy_(up)

    def forward(self, x):
        return self.base(x) + F.linear(F.linear(x, self.down), self.up)


class HyperNet(nn.Module):
    def __init__(self, d_cond, d_in, d_out, rank=2):
        super().__init__()
        self.shapes = [(rank, d_in), (d_out, rank)]
        n = rank * d_in + d_out * rank
        self.body = nn.Sequential(nn.Linear(d_cond, 32), nn.ReLU(), nn.Linear(32, n))

    def forward(self, cond, target):
        flat = self.body(cond).mean(0)
        a, b = self.shapes
        down = flat[: a[0] * a[1]].view(*a)
        up = flat[a[0] * a[1]:].view(*b)
        target.update_weights(down, up)
        return flat
