"""Training-free inpainting by optimising the initial noise of a frozen one-step generator."""
import torch
import torch.nn as nn


class OneStepGenerator(nn.Module):
    """Stand-in for a distilled diffusion model: noise -> image in a single step."""

    def __init__(self, channels=3):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(channels, 16, 3, padding=1), nn.Tanh(),
                                 nn.Conv2d(16, channels, 3, padding=1))
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, noise):
        return torch.tanh(self.net(noise) + noise)


def sonic_inpaint(generator, image, mask, steps=40, lr=0.1, seed=0):
    """Optimise epsilon so the generated image matches the known (mask == 1) pixels."""
    gen = torch.Generator().manual_seed(seed)
    epsilon_optim_target = torch.randn(image.shape, generator=gen).requires_grad_(True)
    opt = torch.optim.Adam([epsilon_optim_target], lr=lr)
    first = None
    for _ in range(steps):
        x0 = generator(epsilon_optim_target)
        loss = ((x0 - image) ** 2 * mask).sum() / mask.sum()
        first = loss.item() if first is None else first
        opt.zero_grad()
        loss.backward()
        opt.step()
    return generator(epsilon_optim_target).detach(), first, loss.item()
