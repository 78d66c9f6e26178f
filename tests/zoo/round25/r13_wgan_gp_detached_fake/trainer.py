import torch
import torch.nn as nn


def gradient_penalty(D, real, fake):
    alpha = torch.rand(real.size(0), 1)
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = D(interp)
    grads = torch.autograd.grad(out, interp, grad_outputs=torch.ones_like(out),
                                create_graph=True, retain_graph=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


class WGANGPTrainer:
    def __init__(self, G, D, lambda_gp=10.0, n_critic=3):
        self.G, self.D = G, D
        self.opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
        self.opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
        self.lambda_gp = lambda_gp
        self.n_critic = n_critic
        self.g_grad_during_d = []

    def critic_step(self, real, z):
        fake = self.G(z).detach()
        d_loss = self.D(fake).mean() - self.D(real).mean()
        d_loss = d_loss + self.lambda_gp * gradient_penalty(self.D, real, fake)
        self.opt_d.zero_grad()
        self.opt_g.zero_grad()
        d_loss.backward()
        self.g_grad_during_d.append(all(p.grad is None for p in self.G.parameters()))
        self.opt_d.step()
        return d_loss.item()

    def generator_step(self, z):
        g_loss = -self.D(self.G(z)).mean()
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return g_loss.item()

    def train_iteration(self, it, real, z):
        self.critic_step(real, z)
        if it % self.n_critic == 0:
            self.generator_step(z)
