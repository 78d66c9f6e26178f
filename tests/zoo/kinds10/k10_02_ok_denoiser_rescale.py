"""
expect: none
dynamic: dismiss
source: kinds check 10, kind 2

The same factory-built denoiser ending in nn.Sigmoid() is handed to
train_step, which rescales the reconstruction out of place (`net(x) * 255`)
and clips a detached copy only for a PSNR printout. Sigmoid's saved output is
untouched, backward succeeds and all conv layers receive gradients.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


def build_denoiser(channels=1, width=8):
    return nn.Sequential(
        nn.Conv2d(channels, width, 3, padding=1),
        nn.ReLU(),
        nn.Conv2d(width, width, 3, padding=1),
        nn.ReLU(),
        nn.Conv2d(width, channels, 3, padding=1),
        nn.Sigmoid(),
    )


def add_noise(images_u8, sigma=20.0):
    noisy = images_u8.float() + sigma * torch.randn(images_u8.shape)
    return (noisy.clamp(0, 255) / 255.0)


def psnr(pred, target):
    mse = F.mse_loss(pred, target).item()
    return 10 * math.log10(255.0 ** 2 / max(mse, 1e-8))


def train_step(net, optimizer, noisy, clean_u8):
    recon = net(noisy) * 255.0
    loss = F.l1_loss(recon, clean_u8.float())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    shown = recon.detach().round().clamp_(0, 255)
    return loss.item(), psnr(shown, clean_u8.float())


def main():
    net = build_denoiser()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    clean = torch.randint(0, 256, (4, 1, 12, 12), dtype=torch.uint8)
    noisy = add_noise(clean)

    before = [p.detach().clone() for p in net.parameters()]
    for _ in range(3):
        loss, score = train_step(net, optimizer, noisy, clean)
    for p, old in zip(net.parameters(), before):
        assert p.grad is not None and p.grad.abs().sum() > 0
        assert not torch.equal(p, old)
    print("loss %.3f psnr %.2f" % (loss, score))
    print("OK")


if __name__ == "__main__":
    main()
