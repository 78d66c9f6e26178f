"""
expect: none
dynamic: dismiss
source: kinds check 44, kind 1

A small GAN for 1-D waveforms with a plain trainer class. `forward()` generates fake
signals and stores them in `self.fake`, plus the discriminator's scores of them in
`self.pred_fake` (only read as a number for logging); `backward_D()` trains the
discriminator on detached fakes and steps `self.optimizer_D`; `backward_G()` then
re-scores `self.fake` with the freshly updated discriminator instead of reusing the stored
scores, so the generator's backward only goes through graph built after the step. The
driver method `optimize_parameters()` calls them in that order. The asserts check that
twenty iterations run, that both networks' parameters change, and that the generator
received a non-zero gradient on every iteration.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, z_dim=8, length=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z_dim, 64), nn.Tanh(), nn.Linear(64, length))

    def forward(self, z):
        return self.net(z)


class Discriminator(nn.Module):
    def __init__(self, length=32):
        super().__init__()
        self.conv = nn.Conv1d(1, 4, kernel_size=5, padding=2)
        self.head = nn.Linear(4 * length, 1)

    def forward(self, x):
        h = F.leaky_relu(self.conv(x.unsqueeze(1)), 0.2)
        return self.head(h.flatten(1))


class SignalGANTrainer:
    def __init__(self, z_dim=8, length=32, lr=2e-4):
        self.z_dim = z_dim
        self.netG = Generator(z_dim, length)
        self.netD = Discriminator(length)
        self.optimizer_G = torch.optim.Adam(self.netG.parameters(), lr=lr, betas=(0.5, 0.999))
        self.optimizer_D = torch.optim.Adam(self.netD.parameters(), lr=lr, betas=(0.5, 0.999))
        self.history = []

    def set_input(self, real):
        self.real = real

    def forward(self):
        z = torch.randn(self.real.shape[0], self.z_dim)
        self.fake = self.netG(z)
        self.pred_fake = self.netD(self.fake)

    def backward_D(self):
        self.d_fake_before = self.pred_fake.mean().item()
        pred_real = self.netD(self.real)
        pred_fake = self.netD(self.fake.detach())
        self.loss_D = 0.5 * (
            F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real))
            + F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake))
        )
        self.optimizer_D.zero_grad()
        self.loss_D.backward()
        self.optimizer_D.step()

    def backward_G(self):
        # score the fakes again: the discriminator has just been updated
        pred_fake = self.netD(self.fake)
        self.loss_G = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
        self.optimizer_G.zero_grad()
        self.loss_G.backward()
        g_norm = sum(p.grad.abs().sum().item() for p in self.netG.parameters())
        self.optimizer_G.step()
        self.history.append((self.loss_D.item(), self.loss_G.item(), g_norm))

    def optimize_parameters(self):
        self.forward()
        self.backward_D()
        self.backward_G()


def snapshot(module):
    return [p.detach().clone() for p in module.parameters()]


if __name__ == "__main__":
    torch.manual_seed(1)
    t = torch.linspace(0, 6.283, 32)
    trainer = SignalGANTrainer()
    g0, d0 = snapshot(trainer.netG), snapshot(trainer.netD)
    for it in range(20):
        phase = torch.rand(16, 1) * 6.283
        trainer.set_input(torch.sin(t + phase) + 0.05 * torch.randn(16, 32))
        trainer.optimize_parameters()

    assert len(trainer.history) == 20
    assert all(g_norm > 0 for _, _, g_norm in trainer.history)
    assert any(not torch.equal(a, b) for a, b in zip(g0, snapshot(trainer.netG)))
    assert any(not torch.equal(a, b) for a, b in zip(d0, snapshot(trainer.netD)))
    d_loss, g_loss, _ = trainer.history[-1]
    print(f"gan trained: loss_D={d_loss:.3f} loss_G={g_loss:.3f}")
