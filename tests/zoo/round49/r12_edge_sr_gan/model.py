"""Edge-guided super-resolution GAN model: generator, patch discriminator, losses and the update step."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class EdgeGenerator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(4, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 1, 3, padding=1))

    def forward(self, x):
        return torch.sigmoid(self.body(x))


class PatchDiscriminator(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.c1 = nn.Conv2d(4, ch, 3, stride=2, padding=1)
        self.c2 = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, x):
        f1 = F.leaky_relu(self.c1(x), 0.2)
        return torch.sigmoid(self.c2(f1)), [f1]


class EdgeSRModel(nn.Module):
    def __init__(self, scale=2, lr=1e-3, fm_weight=10.0):
        super().__init__()
        self.scale = scale
        self.fm_weight = fm_weight
        self.generator = EdgeGenerator()
        self.discriminator = PatchDiscriminator()
        self.gen_optimizer = torch.optim.Adam(self.generator.parameters(), lr=lr)
        self.dis_optimizer = torch.optim.Adam(self.discriminator.parameters(), lr=lr)

    def forward(self, lr_images, lr_edges):
        hr_images = F.interpolate(lr_images, scale_factor=self.scale)
        hr_edges = F.interpolate(lr_edges, scale_factor=self.scale)
        return self.generator(torch.cat((hr_images, hr_edges), dim=1))

    def process(self, lr_images, hr_images, lr_edges, hr_edges):
        self.gen_optimizer.zero_grad()
        self.dis_optimizer.zero_grad()
        outputs = self(lr_images, lr_edges)

        # discriminator loss (generator output detached)
        dis_real, dis_real_feat = self.discriminator(torch.cat((hr_images, hr_edges), dim=1))
        dis_fake, _ = self.discriminator(torch.cat((hr_images, outputs.detach()), dim=1))
        dis_loss = (F.binary_cross_entropy(dis_real, torch.ones_like(dis_real))
                    + F.binary_cross_entropy(dis_fake, torch.zeros_like(dis_fake))) / 2

        # generator adversarial + feature-matching loss, computed through the current discriminator
        gen_fake, gen_fake_feat = self.discriminator(torch.cat((hr_images, outputs), dim=1))
        gen_loss = F.binary_cross_entropy(gen_fake, torch.ones_like(gen_fake))
        fm = sum(F.l1_loss(a, b.detach()) for a, b in zip(gen_fake_feat, dis_real_feat))
        gen_loss = gen_loss + self.fm_weight * fm
        return outputs, gen_loss, dis_loss

    def backward(self, gen_loss, dis_loss):
        dis_loss.backward()
        self.dis_optimizer.step()

        gen_loss.backward()
        self.gen_optimizer.step()
