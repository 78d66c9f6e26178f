"""CycleGAN for symbolic-music genre transfer on piano-roll bars (time x pitch)."""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.conv1 = nn.Conv2d(1, dim, 3, padding=1)
        self.conv2 = nn.Conv2d(dim, dim, 3, padding=1)
        self.out = nn.Conv2d(dim, 1, 3, padding=1)

    def forward(self, x):
        h = F.relu(self.conv1(x))
        h = F.relu(self.conv2(h))
        return torch.sigmoid(self.out(h))


class Discriminator(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.conv1 = nn.Conv2d(1, dim, 4, stride=2, padding=1)
        self.out = nn.Conv2d(dim, 1, 3, padding=1)

    def forward(self, x):
        return self.out(F.leaky_relu(self.conv1(x), 0.2))


class Sampler(object):
    """History pool of generated bars shown to the discriminators."""

    def __init__(self, max_length=50, detach=False):
        self.maxsize = max_length
        self.num = 0
        self.images = []
        self.detach = detach

    def __call__(self, image):
        if self.detach:
            image = [im.detach() for im in image]
        if self.maxsize <= 0:
            return image
        if self.num < self.maxsize:
            self.images.append(image)
            self.num += 1
            return image
        if np.random.rand() > 0.5:
            idx = int(np.random.rand() * self.maxsize)
            tmp1 = copy.copy(self.images[idx])[0]
            self.images[idx][0] = image[0]
            idx = int(np.random.rand() * self.maxsize)
            tmp2 = copy.copy(self.images[idx])[1]
            self.images[idx][1] = image[1]
            return [tmp1, tmp2]
        return image


class CycleGAN(nn.Module):
    def __init__(self, sigma=0.01, sample_size=50, lamb=10.0, detach_pool=False):
        super().__init__()
        self.G_A2B, self.G_B2A = Generator(), Generator()
        self.D_A, self.D_B = Discriminator(), Discriminator()
        self.D_A_all, self.D_B_all = Discriminator(), Discriminator()
        self.sigma, self.lamb = sigma, lamb
        self.sampler = Sampler(sample_size, detach=detach_pool)
        self.l2loss = nn.MSELoss()

    def forward(self, real_A, real_B, x_m):
        fake_B = self.G_A2B(real_A)
        cycle_A = self.G_B2A(fake_B)
        fake_A = self.G_B2A(real_B)
        cycle_B = self.G_A2B(fake_A)
        [sample_fake_A, sample_fake_B] = self.sampler([fake_A, fake_B])
        noise = torch.randn_like(real_A) * self.sigma

        DA_real, DB_real = self.D_A(real_A + noise), self.D_B(real_B + noise)
        DA_fake, DB_fake = self.D_A(fake_A + noise), self.D_B(fake_B + noise)
        DA_fake_sample = self.D_A(sample_fake_A + noise)
        DB_fake_sample = self.D_B(sample_fake_B + noise)
        DA_real_all, DB_real_all = self.D_A_all(x_m + noise), self.D_B_all(x_m + noise)
        DA_fake_all = self.D_A_all(sample_fake_A + noise)
        DB_fake_all = self.D_B_all(sample_fake_B + noise)

        c_loss = self.lamb * (F.l1_loss(cycle_A, real_A) + F.l1_loss(cycle_B, real_B))
        g_A2B_loss = self.l2loss(DB_fake, torch.ones_like(DB_fake)) + c_loss
        g_B2A_loss = self.l2loss(DA_fake, torch.ones_like(DA_fake)) + c_loss
        d_A_loss = (self.l2loss(DA_real, torch.ones_like(DA_real)) +
                    self.l2loss(DA_fake_sample, torch.zeros_like(DA_fake_sample))) / 2
        d_B_loss = (self.l2loss(DB_real, torch.ones_like(DB_real)) +
                    self.l2loss(DB_fake_sample, torch.zeros_like(DB_fake_sample))) / 2
        d_A_all_loss = (self.l2loss(DA_real_all, torch.ones_like(DA_real_all)) +
                        self.l2loss(DA_fake_all, torch.zeros_like(DA_fake_all))) / 2
        d_B_all_loss = (self.l2loss(DB_real_all, torch.ones_like(DB_real_all)) +
                        self.l2loss(DB_fake_all, torch.zeros_like(DB_fake_all))) / 2
        return c_loss, g_A2B_loss, g_B2A_loss, d_A_loss, d_B_loss, d_A_all_loss, d_B_all_loss
