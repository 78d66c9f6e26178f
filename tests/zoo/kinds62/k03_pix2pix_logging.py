"""
expect: none
dynamic: dismiss
source: none, invented

A tiny pix2pix-style translator (8x8 single-channel "sketch" to "photo") with a PatchGAN discriminator. The
generator's adversarial term goes through the discriminator and is kept, together with an L1 term, in a dict of
named losses. Those terms are summed and backpropagated, and the generator steps, before the discriminator runs
its own backward and step on detached fakes. After the discriminator step only `.item()` copies of the kept
terms are used, for the running log, so no graph that saved the discriminator's weights is backpropagated after
they change. The asserts show both networks' weights move and the L1 reconstruction error falls.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)


class UNetLite(nn.Module):
    def __init__(self):
        super().__init__()
        self.down = nn.Sequential(nn.Conv2d(1, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2))
        self.mid = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1), nn.ReLU())
        self.up = nn.ConvTranspose2d(16, 16, 4, stride=2, padding=1)
        self.out = nn.Conv2d(16 + 1, 1, 3, padding=1)

    def forward(self, sketch):
        h = self.up(self.mid(self.down(sketch)))
        return torch.tanh(self.out(torch.cat([h, sketch], dim=1)))


class PatchDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(2, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2),
            nn.Conv2d(16, 1, 3, padding=1),
        )

    def forward(self, sketch, photo):
        return self.net(torch.cat([sketch, photo], dim=1))


def paired_batch(n=16):
    photo = torch.tanh(torch.randn(n, 1, 8, 8))
    sketch = 0.5 * photo.flip(-1) + 0.1 * torch.randn_like(photo)
    return sketch, photo


def train(steps=150, lambda_l1=50.0):
    netG, netD = UNetLite(), PatchDiscriminator()
    optG = torch.optim.Adam(netG.parameters(), lr=2e-3, betas=(0.5, 0.999))
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))
    g_start = netG.out.weight.detach().clone()
    d_start = netD.net[0].weight.detach().clone()
    history = []

    for it in range(steps):
        sketch, photo = paired_batch()
        fake = netG(sketch)

        pred_fake = netD(sketch, fake)
        g_losses = {
            "adv": F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake)),
            "l1": lambda_l1 * F.l1_loss(fake, photo),
        }
        optG.zero_grad()
        sum(g_losses.values()).backward()
        optG.step()

        pred_real = netD(sketch, photo)
        pred_fake = netD(sketch, fake.detach())
        d_loss = 0.5 * (F.binary_cross_entropy_with_logits(pred_real, torch.ones_like(pred_real))
                        + F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake)))
        optD.zero_grad()
        d_loss.backward()
        optD.step()

        history.append({name: value.item() for name, value in g_losses.items()} | {"d": d_loss.item()})

    return netG, netD, g_start, d_start, history


def main():
    netG, netD, g_start, d_start, history = train()
    assert not torch.equal(netG.out.weight, g_start)
    assert not torch.equal(netD.net[0].weight, d_start)
    first = sum(h["l1"] for h in history[:10]) / 10
    last = sum(h["l1"] for h in history[-10:]) / 10
    assert last < 0.9 * first, (first, last)
    print(f"k03: l1 {first:.2f} -> {last:.2f}")


if __name__ == "__main__":
    main()
