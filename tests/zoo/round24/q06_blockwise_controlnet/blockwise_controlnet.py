import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight


class BlockWiseControlBlock(nn.Module):
    """Fuse the DiT image stream with the control stream; zero-initialised output."""

    def __init__(self, dim):
        super().__init__()
        self.x_rms, self.y_rms = RMSNorm(dim), RMSNorm(dim)
        self.input_proj = nn.Linear(dim, dim)
        self.act = nn.GELU()
        self.output_proj = nn.Linear(dim, dim)
        nn.init.zeros_(self.output_proj.weight)
        nn.init.zeros_(self.output_proj.bias)

    def forward(self, x, y):
        h = self.input_proj(self.x_rms(x) + self.y_rms(y))
        return self.output_proj(self.act(h))


class BlockwiseControlNet(nn.Module):
    def __init__(self, dim, num_blocks, cond_channels=3, patch=4):
        super().__init__()
        self.img_in = nn.Conv2d(cond_channels, dim, patch, stride=patch)
        self.controlnet_blocks = nn.ModuleList(BlockWiseControlBlock(dim) for _ in range(num_blocks))

    def process_controlnet_conditioning(self, cond_image):
        return self.img_in(cond_image).flatten(2).transpose(1, 2)

    def blockwise_forward(self, image, conditionings, block_id):
        return self.controlnet_blocks[block_id](image, conditionings)
