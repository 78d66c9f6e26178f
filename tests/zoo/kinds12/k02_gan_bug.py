"""
expect: GL005 40
dynamic: confirm
source: kind 2

A small GAN module owns a generator, a discriminator and one Adam optimizer for each.
One forward returns the discriminator loss and the generator loss; the update method
backpropagates the discriminator loss, steps the discriminator optimizer, then
backpropagates the generator loss, whose graph runs through the discriminator weights that
the step has just modified in place. Autograd raises a RuntimeError about an inplace
operation; a reordered update (generator loss recomputed after the step) runs cleanly.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class PairedGAN(nn.Module):
    def __init__(self, z_dim=8, img_dim=64):
        super().__init__()
        self.z_dim = z_dim
        self.gen = nn.Sequential(nn.Linear(z_dim, 32), nn.ReLU(), nn.Linear(32, img_dim), nn.Tanh())
        self.disc = nn.Sequential(nn.Linear(img_dim, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.g_opt = torch.optim.Adam(self.gen.parameters(), lr=1e-3)
        self.d_opt = torch.optim.Adam(self.disc.parameters(), lr=1e-3)

    def losses(self, real):
        z = torch.randn(real.shape[0], self.z_dim)
        fake = self.gen(z)
        ones = torch.ones(real.shape[0], 1)
        zeros = torch.zeros(real.shape[0], 1)
        d_loss = F.binary_cross_entropy_with_logits(self.disc(real), ones) + \
            F.binary_cross_entropy_with_logits(self.disc(fake.detach()), zeros)
        g_loss = F.binary_cross_entropy_with_logits(self.disc(fake), ones)
        return d_loss, g_loss

    def update(self, d_loss, g_loss):
        self.d_opt.zero_grad()
        d_loss.backward()
        self.d_opt.step()
        self.g_opt.zero_grad()
        g_loss.backward()
        self.g_opt.step()


def main():
    torch.manual_seed(0)
    real = torch.rand(32, 64) * 2 - 1
    gan = PairedGAN()
    d_loss, g_loss = gan.losses(real)
    try:
        gan.update(d_loss, g_loss)
    except RuntimeError as err:
        msg = str(err)
    else:
        msg = ""
    assert "inplace" in msg, msg

    # reference: step the discriminator, then rebuild the generator loss
    ref = PairedGAN()
    d_loss, _ = ref.losses(real)
    ref.d_opt.zero_grad()
    d_loss.backward()
    ref.d_opt.step()
    _, g_loss = ref.losses(real)
    g_before = ref.gen[0].weight.clone()
    ref.g_opt.zero_grad()
    g_loss.backward()
    ref.g_opt.step()
    assert not torch.equal(ref.gen[0].weight, g_before)
    print("ok: second backward hit weights changed in place by the optimizer step")


if __name__ == "__main__":
    main()
