"""TimeGAN-style trainer: one shared forward per batch, then generator and embedder updates."""
import torch
import torch.nn as nn


def block(i, o):
    return nn.Sequential(nn.Linear(i, o), nn.Tanh())


class TimeGAN:
    def __init__(self, feat=3, hidden=8, lr=1e-2, gamma=1.0):
        self.embedder = block(feat, hidden)
        self.recovery = nn.Linear(hidden, feat)
        self.generator = block(feat, hidden)
        self.supervisor = block(hidden, hidden)
        self.discriminator = nn.Sequential(nn.Linear(hidden, 1), nn.Sigmoid())
        self.gamma = gamma
        self.mse, self.bce = nn.MSELoss(), nn.BCELoss()
        self.opt_e = torch.optim.Adam(self.embedder.parameters(), lr=lr)
        self.opt_r = torch.optim.Adam(self.recovery.parameters(), lr=lr)
        self.opt_g = torch.optim.Adam(self.generator.parameters(), lr=lr)
        self.opt_s = torch.optim.Adam(self.supervisor.parameters(), lr=lr)

    def gen_batch(self, x, z):
        self.X, self.Z = x, z
        self.H = self.embedder(x)
        self.X_tilde = self.recovery(self.H)
        self.H_hat_supervise = self.supervisor(self.H)
        self.E_hat = self.generator(z)
        self.H_hat = self.supervisor(self.E_hat)
        self.X_hat = self.recovery(self.H_hat)
        self.Y_fake = self.discriminator(self.H_hat)
        self.Y_fake_e = self.discriminator(self.E_hat)

    def train_generator(self):
        self.opt_g.zero_grad()
        self.opt_s.zero_grad()
        g_loss_u = self.bce(self.Y_fake, torch.ones_like(self.Y_fake))
        g_loss_u_e = self.bce(self.Y_fake_e, torch.ones_like(self.Y_fake_e))
        g_loss_s = self.mse(self.H_hat_supervise[:, :-1], self.H[:, 1:])
        g_loss_v = (self.X_hat.mean(0) - self.X.mean(0)).abs().mean()
        self.G_loss = g_loss_u + self.gamma * g_loss_u_e + 10 * torch.sqrt(g_loss_s) + 10 * g_loss_v
        self.G_loss.backward(retain_graph=True)
        self.opt_g.step()
        self.opt_s.step()

    def train_embedder(self):
        self.opt_e.zero_grad()
        self.opt_r.zero_grad()
        e_loss0 = 10 * torch.sqrt(self.mse(self.X, self.X_tilde))
        g_loss_s = self.mse(self.H[:, 1:], self.H_hat_supervise[:, :-1])
        self.E_loss = e_loss0 + 0.1 * g_loss_s
        self.E_loss.backward()
        self.opt_e.step()
        self.opt_r.step()
