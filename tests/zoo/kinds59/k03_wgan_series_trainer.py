"""
expect: none
dynamic: dismiss
source: none, invented

A WGAN-GP trainer for short sine-wave sequences, written as a class. Its `_optimize(opt, loss,
weight)` method zeroes the gradients, backpropagates `loss * weight` and steps. Each iteration
first builds the critic loss (with gradient penalty) and steps the critic, and only afterwards
scores a fresh fake batch with the updated critic to build the generator loss, which is handed to
`_optimize` for the generator. No loss is kept across a step of the network it passes through, so
this is correct. The asserts check that both networks' weights change, that every generator
parameter received a gradient, and that all 40 iterations ran without an autograd error.
"""
import copy

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)

SEQ, NOISE = 24, 8


def sine_batch(n):
    t = torch.linspace(0, 1, SEQ)
    freq = 1.0 + 2.0 * torch.rand(n, 1)
    phase = 6.283 * torch.rand(n, 1)
    return torch.sin(6.283 * freq * t + phase)


class SeriesGANTrainer:
    def __init__(self, lr=2e-4, gp_weight=10.0, critic_iters=2):
        self.generator = nn.Sequential(nn.Linear(NOISE, 64), nn.ReLU(), nn.Linear(64, SEQ), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(SEQ, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
        self.opt_g = torch.optim.Adam(self.generator.parameters(), lr=lr, betas=(0.5, 0.9))
        self.opt_c = torch.optim.Adam(self.critic.parameters(), lr=lr, betas=(0.5, 0.9))
        self.gp_weight = gp_weight
        self.critic_iters = critic_iters
        self.history = []

    def _optimize(self, opt, loss, weight=1.0):
        opt.zero_grad()
        (loss * weight).backward()
        opt.step()

    def _penalty(self, real, fake):
        eps = torch.rand(real.size(0), 1)
        mix = (eps * real + (1 - eps) * fake).requires_grad_(True)
        score = self.critic(mix)
        grad, = torch.autograd.grad(score.sum(), mix, create_graph=True)
        return ((grad.norm(dim=1) - 1) ** 2).mean()

    def train_step(self, bs=64):
        for _ in range(self.critic_iters):
            real = sine_batch(bs)
            fake = self.generator(torch.randn(bs, NOISE)).detach()
            c_loss = self.critic(fake).mean() - self.critic(real).mean()
            c_loss = c_loss + self.gp_weight * self._penalty(real, fake)
            self._optimize(self.opt_c, c_loss)
        fake = self.generator(torch.randn(bs, NOISE))
        g_loss = -self.critic(fake).mean()
        self._optimize(self.opt_g, g_loss, weight=1.0)
        self.history.append((c_loss.item(), g_loss.item()))


if __name__ == "__main__":
    trainer = SeriesGANTrainer()
    g0 = copy.deepcopy(trainer.generator.state_dict())
    c0 = copy.deepcopy(trainer.critic.state_dict())
    for _ in range(40):
        trainer.train_step()
    g_moved = max((trainer.generator.state_dict()[k] - g0[k]).abs().max().item() for k in g0)
    c_moved = max((trainer.critic.state_dict()[k] - c0[k]).abs().max().item() for k in c0)
    assert g_moved > 1e-3 and c_moved > 1e-3, (g_moved, c_moved)
    assert all(p.grad is not None for p in trainer.generator.parameters())
    assert len(trainer.history) == 40
    print("k03_wgan_series_trainer: all checks passed")
