"""Generator/discriminator pair for 2-D detector charge maps (one module, like the engine expects)."""
import torch
import torch.nn as nn


class ChargeGenerator(nn.Module):
    def __init__(self, z_dim=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(z_dim, 16, 4, 1, 0), nn.ReLU(),
            nn.ConvTranspose2d(16, 1, 4, 2, 1), nn.Tanh(),
        )

    def forward(self, z):
        return self.net(z)


class ChargeDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(1, 16, 4, 2, 1), nn.LeakyReLU(0.2),
            nn.Flatten(), nn.Linear(16 * 4 * 4, 1),
        )

    def forward(self, x):
        return self.net(x)


class GeneratorDiscriminator(nn.Module):
    def __init__(self, z_dim=16):
        super().__init__()
        self.generator = ChargeGenerator(z_dim)
        self.discriminator = ChargeDiscriminator()

    def forward(self, data, z):
        gen_imgs = self.generator(z)
        return {
            "genimgs": gen_imgs,
            "genresults": self.discriminator(gen_imgs),
            "realresults": self.discriminator(data),
        }
