"""
expect: none
dynamic: dismiss
source: https://github.com/rosinality/stylegan2-pytorch/blob/master/projector.py

GAN inversion by optimisation (StyleGAN2 projector). The mean W latent is estimated
from many mapped z samples under torch.no_grad(), copied with .detach().clone(), and
only then marked requires_grad = True: it is a fresh leaf that the optimiser moves,
not a value whose lost history someone tries to revive. The per-layer noise maps are
likewise leaves with requires_grad switched on, re-normalised in place through .data
after each optimiser step (outside the graph), and the noise strength is turned into a
Python float with .item() because it is only a schedule constant. The generator is
frozen on purpose. The asserts show that the latent and noise receive gradients, the
generator receives none, and the reconstruction error of the target image drops by
a large factor.
"""
import math

import torch
from torch import nn
import torch.nn.functional as F

torch.manual_seed(0)
torch.set_num_threads(1)

LATENT = 16


class TinyStyleGenerator(nn.Module):
    def __init__(self):
        super().__init__()
        self.style = nn.Sequential(nn.Linear(LATENT, LATENT), nn.LeakyReLU(0.2), nn.Linear(LATENT, LATENT))
        self.synth = nn.Sequential(nn.Linear(LATENT, 64), nn.Tanh(), nn.Linear(64, 64))
        self.noise_scale = nn.Parameter(torch.full((1, 64), 0.1))

    def make_noise(self, batch):
        return [torch.randn(batch, 64)]

    def forward(self, w, noise):
        return self.synth(w) + self.noise_scale * noise[0]


def noise_regularize(noises):
    loss = 0
    for n in noises:
        loss = loss + (n * torch.roll(n, shifts=1, dims=1)).mean().pow(2)
    return loss


def noise_normalize_(noises):
    for n in noises:
        mean, std = n.mean(), n.std()
        n.data.add_(-mean).div_(std)


def get_lr(t, initial_lr, rampdown=0.25, rampup=0.05):
    ramp = min(1, (1 - t) / rampdown)
    ramp = 0.5 - 0.5 * math.cos(ramp * math.pi)
    return initial_lr * ramp * min(1, t / rampup)


def project(g, target, steps=300, lr=0.1):
    with torch.no_grad():
        z = torch.randn(2000, LATENT)
        w_samples = g.style(z)
        w_mean = w_samples.mean(0)
        w_std = ((w_samples - w_mean).pow(2).sum() / z.shape[0]) ** 0.5

    latent_in = w_mean.detach().clone().unsqueeze(0).repeat(target.shape[0], 1)
    latent_in.requires_grad = True
    noises = g.make_noise(target.shape[0])
    for n in noises:
        n.requires_grad = True

    opt = torch.optim.Adam([latent_in] + noises, lr=lr)
    first = None
    for i in range(steps):
        t = i / steps
        opt.param_groups[0]["lr"] = get_lr(t, lr)
        strength = w_std * 0.05 * max(0, 1 - t / 0.75) ** 2
        w = latent_in + torch.randn_like(latent_in) * strength.item()
        img = g(w, noises)
        mse = F.mse_loss(img, target)
        loss = mse + 1.0 * noise_regularize(noises)
        opt.zero_grad()
        loss.backward()
        if i == 0:
            assert latent_in.grad is not None and latent_in.grad.abs().sum() > 0
            assert noises[0].grad is not None
            assert all(p.grad is None for p in g.parameters())
            first = mse.item()
        opt.step()
        noise_normalize_(noises)
    with torch.no_grad():
        final = F.mse_loss(g(latent_in, noises), target).item()
    return first, final


def main():
    g = TinyStyleGenerator()
    for p in g.parameters():
        p.requires_grad = False
    g.eval()
    with torch.no_grad():
        true_w = g.style(torch.randn(4, LATENT))
        target = g(true_w, g.make_noise(4))
    first, final = project(g, target)
    print(f"projection mse {first:.4f} -> {final:.4f}")
    assert final < 0.5 * first
    print("OK: detached mean latent re-leafed as the optimisation variable")


if __name__ == "__main__":
    main()
