"""Small training helpers: one Trainer per network, losses are registered then applied."""
import torch
import torch.nn.functional as F


class Trainer:
    def __init__(self, net, lr=2e-4):
        self.net = net
        self._optimizer = torch.optim.Adam(net.parameters(), lr=lr, betas=(0.5, 0.999))
        self._losses = {}

    def _clear(self):
        self._losses = {}

    def _add(self, name, loss):
        self._losses[name] = loss

    def _update(self):
        total = sum(self._losses.values())
        self._optimizer.zero_grad()
        total.backward()
        self._optimizer.step()
        return total.item()


class GanLoss:
    """Adversarial term: puts the generator part on the G trainer and the
    discriminator part on the D trainer, from one discriminator forward pass."""

    def __init__(self, g_trainer, d_trainer, name):
        self.g_trainer = g_trainer
        self.d_trainer = d_trainer
        self.name = name

    def __call__(self, fake, real):
        disc = self.d_trainer.net
        score_fake = disc(fake)
        g_loss = F.binary_cross_entropy_with_logits(score_fake, torch.ones_like(score_fake))
        self.g_trainer._add(self.name + "_adv", g_loss)

        score_real = disc(real)
        score_fake_d = disc(fake.detach())
        d_loss = F.binary_cross_entropy_with_logits(score_real, torch.ones_like(score_real)) + \
            F.binary_cross_entropy_with_logits(score_fake_d, torch.zeros_like(score_fake_d))
        self.d_trainer._add(self.name + "_d", d_loss)
