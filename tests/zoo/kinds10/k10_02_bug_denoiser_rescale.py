"""
expect: GL005 36
dynamic: error
source: kinds check 10, kind 2

A small convolutional denoiser built by a factory ends in nn.Sigmoid() and is
handed to train_step, which rescales the reconstruction to the 0..255 pixel
range with an in-place `mul_`. Sigmoid saved its output for backward, so the
edit bumps that tensor's version and loss.backward() raises a RuntimeError.
"""
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


def train_step(net, optimizer, noisy, clean_u8):
    recon = net(noisy)
    recon.mul_(255.0)
    loss = F.l1_loss(recon, clean_u8.float())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    net = build_denoiser()
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    clean = torch.randint(0, 256, (4, 1, 12, 12), dtype=torch.uint8)
    noisy = add_noise(clean)

    first_conv = net[0].weight.detach().clone()
    raised = False
    try:
        train_step(net, optimizer, noisy, clean)
    except RuntimeError as err:
        raised = "modified by an inplace operation" in str(err)
    assert raised, "expected autograd to reject the in-place rescale"
    assert torch.equal(net[0].weight, first_conv)
    print("OK")


if __name__ == "__main__":
    main()
