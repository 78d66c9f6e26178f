import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, img_dim=12, z_dim=4):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(img_dim, 16), nn.ReLU())
        self.mu = nn.Linear(16, z_dim)

    def forward(self, x):
        return self.mu(self.body(x))


class Generator(nn.Module):
    def __init__(self, a_dim=6, z_dim=4, img_dim=12):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(a_dim + z_dim, 16), nn.ReLU(),
                                 nn.Linear(16, img_dim))

    def forward(self, a, z):
        return self.net(torch.cat([a, z], 1))


class BicycleModel:
    """Two-stage update: E+G on the cVAE losses, then G alone on the latent L1."""

    def __init__(self, fix_order=False):
        self.netE = Encoder()
        self.netG = Generator()
        self.opt_E = torch.optim.Adam(self.netE.parameters(), lr=1e-2)
        self.opt_G = torch.optim.Adam(self.netG.parameters(), lr=1e-2)
        self.fix_order = fix_order

    def forward(self, real_A, real_B):
        self.real_B = real_B
        self.z_enc = self.netE(real_B)
        self.fake_B_enc = self.netG(real_A, self.z_enc)
        self.z_random = torch.randn(real_A.size(0), 4)
        self.fake_B_rand = self.netG(real_A, self.z_random)
        # E is run on the random-z sample; its graph goes through E's weights
        self.mu2 = self.netE(self.fake_B_rand)

    def backward_EG(self):
        loss = (self.fake_B_enc - self.real_B).abs().mean() + 0.01 * self.z_enc.pow(2).mean()
        loss.backward(retain_graph=True)

    def backward_G_alone(self):
        self.loss_z = (self.mu2 - self.z_random).abs().mean()
        self.loss_z.backward()

    def optimize(self, real_A, real_B):
        self.forward(real_A, real_B)
        self.opt_E.zero_grad()
        self.opt_G.zero_grad()
        self.backward_EG()
        if self.fix_order:
            # G-alone loss is back-propagated before E's weights move
            self.netE.requires_grad_(False)
            self.backward_G_alone()
            self.netE.requires_grad_(True)
            self.opt_E.step()
            self.opt_G.step()
            return
        self.opt_E.step()
        self.opt_G.step()
        self.opt_G.zero_grad()
        self.backward_G_alone()
        self.opt_G.step()
