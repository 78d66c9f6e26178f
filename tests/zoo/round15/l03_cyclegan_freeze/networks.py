"""Generator / discriminator definitions and the requires_grad toggle used by the GAN model."""
import torch.nn as nn


def set_requires_grad(nets, requires_grad=False):
    """Turn gradient bookkeeping for all parameters of the given networks on or off."""
    if not isinstance(nets, (list, tuple)):
        nets = [nets]
    for net in nets:
        if net is None:
            continue
        for param in net.parameters():
            param.requires_grad = requires_grad


class Generator(nn.Module):
    def __init__(self, ch=3):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, 16, 3, padding=1), nn.ReLU(True),
                                 nn.Conv2d(16, ch, 3, padding=1), nn.Tanh())

    def forward(self, x):
        return self.net(x)


class PatchDiscriminator(nn.Module):
    def __init__(self, ch=6):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(ch, 16, 4, 2, 1), nn.LeakyReLU(0.2, True),
                                 nn.Conv2d(16, 1, 4, 1, 1))

    def forward(self, x):
        return self.net(x)
