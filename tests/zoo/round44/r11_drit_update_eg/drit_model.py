"""Small DRIT-style translator: content/attribute encoders, a generator and a two-stage update_EG."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class ContentEncoder(nn.Module):
    def __init__(self, dim, zc):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, zc))

    def forward(self, x):
        return self.net(x)


class AttributeEncoder(nn.Module):
    def __init__(self, dim, nz):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, nz))

    def forward(self, x):
        return self.net(x)


class Generator(nn.Module):
    def __init__(self, zc, nz, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(zc + nz, 16), nn.LeakyReLU(0.2), nn.Linear(16, dim), nn.Tanh())

    def forward(self, z_content, z_attr):
        return self.net(torch.cat([z_content, z_attr], dim=1))


class Discriminator(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


class DRITModel:
    def __init__(self, dim=12, zc=6, nz=4, lr=1e-2):
        self.nz = nz
        self.enc_c = ContentEncoder(dim, zc)
        self.enc_a = AttributeEncoder(dim, nz)
        self.gen = Generator(zc, nz, dim)
        self.dis_a = Discriminator(dim)
        self.dis_a2 = Discriminator(dim)
        self.enc_c_opt = torch.optim.Adam(self.enc_c.parameters(), lr=lr)
        self.enc_a_opt = torch.optim.Adam(self.enc_a.parameters(), lr=lr)
        self.gen_opt = torch.optim.Adam(self.gen.parameters(), lr=lr)

    def set_input(self, real_a, real_b):
        self.real_a, self.real_b = real_a, real_b

    def forward(self):
        self.z_content = self.enc_c(self.real_a)
        self.z_attr = self.enc_a(self.real_b)
        self.fake_encoded = self.gen(self.z_content, self.z_attr)
        self.z_random = torch.randn(self.real_a.size(0), self.nz)
        self.fake_random = self.gen(self.z_content, self.z_random)
        self.z_attr_random = self.enc_a(self.fake_random)

    @staticmethod
    def gan_loss(logits):
        return F.binary_cross_entropy_with_logits(logits, torch.ones_like(logits))

    def backward_EG(self):
        loss_gan = self.gan_loss(self.dis_a(self.fake_encoded))
        loss_recon = F.l1_loss(self.fake_encoded, self.real_b) * 10
        loss_kl = self.z_attr.pow(2).mean() * 0.01
        loss_g = loss_gan + loss_recon + loss_kl
        loss_g.backward(retain_graph=True)
        return loss_g.item()

    def backward_G_alone(self):
        loss_gan2 = self.gan_loss(self.dis_a2(self.fake_random))
        loss_latent = torch.mean(torch.abs(self.z_attr_random - self.z_random)) * 10
        (loss_gan2 + loss_latent).backward()

    def update_EG(self):
        self.enc_c_opt.zero_grad()
        self.enc_a_opt.zero_grad()
        self.gen_opt.zero_grad()
        self.backward_EG()
        self.enc_c_opt.step()
        self.enc_a_opt.step()
        self.gen_opt.step()
        self.enc_c_opt.zero_grad()
        self.gen_opt.zero_grad()
        self.backward_G_alone()
        self.enc_c_opt.step()
        self.gen_opt.step()
