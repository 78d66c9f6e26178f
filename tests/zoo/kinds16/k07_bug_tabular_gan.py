"""
expect: GL005 39
dynamic: confirm
source: kind 7

A tabular-data GAN: build_gan returns G, D and their Adam optimizers built
inline in the return tuple. The training step scores the fakes once, runs the
discriminator backward with retain_graph=True, calls opt_d.step(), then
backpropagates the generator loss through the SAME discriminator graph. The
step has changed D's weights in place, which that graph saved, so the second
backward raises. The asserts catch and check the RuntimeError.
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


class TabularGANTrainer:
    def __init__(self, z_dim=8):
        self.z_dim = z_dim
        self.G, self.D, self.opt_g, self.opt_d = build_gan(z_dim)

    def step(self, real):
        z = torch.randn(len(real), self.z_dim)
        fake = self.G(z)
        d_real, d_fake = self.D(real), self.D(fake)
        d_loss = bce(d_real, torch.ones_like(d_real)) + bce(d_fake, torch.zeros_like(d_fake))
        self.opt_d.zero_grad()
        d_loss.backward(retain_graph=True)
        self.opt_d.step()

        g_loss = bce(d_fake, torch.ones_like(d_fake))
        self.opt_g.zero_grad()
        g_loss.backward()
        self.opt_g.step()
        return d_loss.item(), g_loss.item()


if __name__ == "__main__":
    torch.manual_seed(11)
    trainer = TabularGANTrainer()
    real = torch.randn(64, 5) * torch.tensor([1.0, 2.0, 0.5, 1.0, 3.0])
    d_before = trainer.D[0].weight.detach().clone()
    g_before = trainer.G[0].weight.detach().clone()
    try:
        trainer.step(real)
        raise AssertionError("generator backward should have failed")
    except RuntimeError as e:
        assert "modified by an inplace operation" in str(e), e
    assert not torch.equal(trainer.D[0].weight, d_before)  # D stepped
    assert torch.equal(trainer.G[0].weight, g_before)      # G never did
    print("ok: opt_d.step() between two backwards through one graph raises")
