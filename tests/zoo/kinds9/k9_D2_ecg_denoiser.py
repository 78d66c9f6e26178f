"""expect: GL001 15
dynamic: confirm

An ECG denoiser adds a total-variation smoothness penalty, computed by the helper `total_variation_penalty`, to its reconstruction loss. The helper returns `float(tv.detach())`, so the penalty reaches the loss as a constant and the denoiser's gradients are exactly those of the reconstruction term alone.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def total_variation_penalty(signal):
    tv = signal.diff(dim=-1).abs().mean()
    return float(tv.detach())


class BeatDenoiser(nn.Module):
    def __init__(self, channels=8):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(1, channels, 7, padding=3), nn.ReLU(),
            nn.Conv1d(channels, 1, 7, padding=3))

    def forward(self, noisy):
        return noisy + self.net(noisy)


def step_grads(model, noisy, clean, tv_weight):
    model.zero_grad()
    pred = model(noisy)
    loss = F.mse_loss(pred, clean)
    if tv_weight:
        loss = loss + tv_weight * total_variation_penalty(pred)
    loss.backward()
    return [p.grad.clone() for p in model.parameters()]


def main():
    torch.manual_seed(0)
    t = torch.linspace(0, 4 * math.pi, 256)
    clean = torch.sin(t).repeat(16, 1, 1) + 0.5 * torch.sin(3 * t)
    noisy = clean + 0.3 * torch.randn_like(clean)
    model = BeatDenoiser()

    g_tv = step_grads(model, noisy, clean, tv_weight=0.2)
    g_plain = step_grads(model, noisy, clean, tv_weight=0.0)
    for a, b in zip(g_tv, g_plain):
        assert torch.equal(a, b), "TV penalty should not change any gradient"
    print("D2 ok: helper's float(detach) penalty leaves every gradient unchanged")


if __name__ == "__main__":
    main()
