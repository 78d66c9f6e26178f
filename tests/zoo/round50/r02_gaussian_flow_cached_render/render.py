"""Toy dynamic 2-D Gaussians: renders an image and the projected centres at a time step."""
import torch
from torch import nn


class DynamicGaussians(nn.Module):
    def __init__(self, n=12, size=6):
        super().__init__()
        self.means = nn.Parameter(torch.rand(n, 2) * size)
        self.velocity = nn.Parameter(torch.zeros(n, 2))
        self.colors = nn.Parameter(torch.rand(n, 3))
        ys, xs = torch.meshgrid(torch.arange(size).float(), torch.arange(size).float(), indexing="ij")
        self.register_buffer("pixels", torch.stack([xs, ys], -1).view(-1, 2))

    def render(self, t):
        centres = self.means + self.velocity * float(t)
        diff = self.pixels[:, None, :] - centres[None, :, :]
        weights = torch.softmax(-(diff ** 2).sum(-1), dim=1)
        image = torch.mm(weights, self.colors)
        return {"image": image, "proj": centres}


def gaussian_flow(pkg_a, pkg_b):
    """Per-Gaussian 2-D displacement between two rendered time steps."""
    return pkg_b["proj"] - pkg_a["proj"]
