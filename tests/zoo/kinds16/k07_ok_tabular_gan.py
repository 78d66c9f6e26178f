"""
expect: none
dynamic: dismiss
source: kind 7

A synthetic-patient-record GAN: build_gan returns G, D and their Adam
optimizers built inline in the return tuple. The discriminator step scores
detached fakes, backpropagates and steps; the generator loss is then
recomputed with a fresh D(fake) after the step. The asserts show both
networks get gradients and change over several steps without any error.
"""
import torch
import torch.nn as nn

bce = nn.functional.binary_cross_entropy_with_logits


def build_gan(z_dim=8, x_dim=5, hidden=32):
    G = nn.Sequential(nn.Linear(z_dim, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, x_dim))
    D = nn.Sequential(nn.Linear(x_dim, hidden), nn.LeakyReLU(0.2), nn.Linear(hidden, 1))
    return (G, D,
            torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999)),
            torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999)))


class RecordGANTrainer:
    def __init__(self, z_dim=8):
        self.z_dim = z_dim
        self.G, self.D, self.opt_g, self.opt_d = build_gan(z_dim)

    def step(self, real):
        z = torch.randn(len(real), self.z_dim)
        fake = self.G(z)
        d_real, d_fake = self.D(real), self.D(fake.detach())
        d_loss = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
        self.opt_d.zero_grad()
        d_loss.backward()
        self.opt_d.step()

        d_on_fake = self.D(fake)
        g_loss = bce(d_on_fake, torch.ones_like(d_on_fake))
        self.opt_g.zero_grad()
        g_loss.backward()
        assert self.G[0].weight.grad.abs().sum() > 0
        self.opt_g.step()
        return d_loss.item(), g_loss.item()


if __name__ == "__main__":
    torch.manual_seed(12)
    trainer = RecordGANTrainer()
    real = torch.randn(64, 5) * torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0]) + 2.0
    d_before = trainer.D[0].weight.detach().clone()
    g_before = trainer.G[0].weight.detach().clone()
    fake_mean0 = trainer.G(torch.randn(512, 8)).mean().item()
    for _ in range(300):
        trainer.step(real)
    fake_mean1 = trainer.G(torch.randn(512, 8)).mean().item()
    assert not torch.equal(trainer.D[0].weight, d_before)
    assert not torch.equal(trainer.G[0].weight, g_before)
    assert abs(fake_mean1 - 2.0) < abs(fake_mean0 - 2.0), (fake_mean0, fake_mean1)
    print("ok: generator loss recomputed after opt_d.step(); both train")
