import numpy as np
import torch
import torch.nn as nn


def gaussian_1d(size=5, std=1.0):
    x = np.arange(size) - size // 2
    g = np.exp(-(x ** 2) / (2 * std ** 2))
    return (g / g.sum()).astype(np.float32)


class CannyNet(nn.Module):
    """Fixed-filter edge detector (blur + Sobel + magnitude), used here as a differentiable edge map."""

    def __init__(self, filter_size=5, std=1.0):
        super().__init__()
        g = torch.from_numpy(gaussian_1d(filter_size, std))
        self.gaussian_filter_horizontal = nn.Conv2d(1, 1, (1, filter_size), padding=(0, filter_size // 2), bias=False)
        self.gaussian_filter_vertical = nn.Conv2d(1, 1, (filter_size, 1), padding=(filter_size // 2, 0), bias=False)
        self.gaussian_filter_horizontal.weight.data.copy_(g.view(1, 1, 1, -1))
        self.gaussian_filter_vertical.weight.data.copy_(g.view(1, 1, -1, 1))
        sobel = torch.tensor([[1.0, 0.0, -1.0], [2.0, 0.0, -2.0], [1.0, 0.0, -1.0]])
        self.sobel_filter_horizontal = nn.Conv2d(1, 1, 3, padding=1, bias=False)
        self.sobel_filter_vertical = nn.Conv2d(1, 1, 3, padding=1, bias=False)
        self.sobel_filter_horizontal.weight.data.copy_(sobel.view(1, 1, 3, 3))
        self.sobel_filter_vertical.weight.data.copy_(sobel.t().reshape(1, 1, 3, 3))
        for p in self.parameters():
            p.requires_grad_(False)

    def channel_gradients(self, channel):
        blurred = self.gaussian_filter_vertical(self.gaussian_filter_horizontal(channel))
        return self.sobel_filter_horizontal(blurred), self.sobel_filter_vertical(blurred)

    def forward(self, img):
        grad_x_r, grad_y_r = self.channel_gradients(img[:, 0:1])
        grad_x_g, grad_y_g = self.channel_gradients(img[:, 1:2])
        grad_x_b, grad_y_b = self.channel_gradients(img[:, 2:3])
        grad_mag = torch.sqrt(grad_x_r ** 2 + grad_y_r ** 2 + 1e-8)
        grad_mag += torch.sqrt(grad_x_g ** 2 + grad_y_g ** 2 + 1e-8)
        grad_mag += torch.sqrt(grad_x_b ** 2 + grad_y_b ** 2 + 1e-8)
        return grad_mag
