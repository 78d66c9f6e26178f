"""BiGAN trainer: encoder E, generator G and a joint discriminator D(x, z)."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class JointCritic(nn.Module):
    def __init__(self, x_dim, z_dim):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim + z_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))

    def forward(self, x, z):
        return self.net(torch.cat([x, z], dim=1))


class BiGANTrainer:
    def __init__(self, x_dim=10, z_dim=3, lr=2e-4):
        self.z_dim = z_dim
        self.E = nn.Sequential(nn.Linear(x_dim, 16), nn.ReLU(), nn.Linear(16, z_dim))
        self.G = nn.Sequential(nn.Linear(z_dim, 16), nn.ReLU(), nn.Linear(16, x_dim))
        self.D = JointCritic(x_dim, z_dim)
        self.opt_d = torch.optim.Adam(self.D.parameters(), lr=lr)
        self.opt_ge = torch.optim.Adam(list(self.E.parameters()) + list(self.G.parameters()), lr=lr)

    def train_step(self, x):
        z_fake = torch.randn(x.shape[0], self.z_dim)
        x_fake = self.G(z_fake)
        z_true = self.E(x)
        out_true, out_fake = self.D(x, z_true), self.D(x_fake, z_fake)
        ones, zeros = torch.ones_like(out_true), torch.zeros_like(out_true)
        loss_d = F.binary_cross_entropy_with_logits(out_true, ones) + F.binary_cross_entropy_with_logits(out_fake, zeros)
        loss_ge = F.binary_cross_entropy_with_logits(out_fake, ones) + F.binary_cross_entropy_with_logits(out_true, zeros)
        self.opt_d.zero_grad()
        loss_d.backward(retain_graph=True)
        self.opt_d.step()
        self.opt_ge.zero_grad()
        loss_ge.backward()
        self.opt_ge.step()
        return loss_d.item(), loss_ge.item()
