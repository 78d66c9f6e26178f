"""
expect: GL002 spectral.py:13
dynamic: confirm
source: kinds check 42, kind 4

A small MLP denoiser cleans noisy sinusoid frames. Besides the reconstruction
MSE, the training loss adds a "high-band ratio" penalty from
spectral.highband_ratio, which copies the denoised output to NumPy with
.detach().cpu().numpy(), takes an FFT per frame, writes each ratio into a NumPy
array and returns torch.from_numpy(...) - a tensor with no graph, so the penalty
adds no gradient. The asserts show the penalty does not require grad and that
training with penalty weight 0 and weight 5 ends with identical weights, while
the same penalty computed with torch.fft changes the weights and lowers the
output's high-band ratio.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from spectral import highband_ratio, highband_ratio_torch


def noisy_frames(gen, n=256, length=64):
    t = torch.arange(length, dtype=torch.float32)
    freqs = torch.randint(1, 5, (n, 1), generator=gen).float()
    clean = torch.sin(2 * torch.pi * freqs * t / length)
    return clean + 0.5 * torch.randn(n, length, generator=gen), clean


def make_denoiser(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64))


def train(denoiser, noisy, clean, weight, penalty=highband_ratio, steps=100):
    opt = torch.optim.Adam(denoiser.parameters(), lr=2e-3)
    for _ in range(steps):
        opt.zero_grad()
        out = denoiser(noisy)
        recon = F.mse_loss(out, clean)
        spectral = penalty(out).mean()
        loss = recon + weight * spectral
        loss.backward()
        opt.step()
    return denoiser


def main():
    noisy, clean = noisy_frames(torch.Generator().manual_seed(31))

    probe = make_denoiser(30)
    assert not highband_ratio(probe(noisy)).requires_grad

    a = train(make_denoiser(30), noisy, clean, weight=0.0)
    b = train(make_denoiser(30), noisy, clean, weight=5.0)
    for p, q in zip(a.parameters(), b.parameters()):
        assert torch.equal(p, q), "spectral penalty changed training"

    c = train(make_denoiser(30), noisy, clean, weight=5.0, penalty=highband_ratio_torch)
    assert any(not torch.equal(p, q) for p, q in zip(a.parameters(), c.parameters()))
    with torch.no_grad():
        r_a, r_c = highband_ratio(a(noisy)).mean().item(), highband_ratio(c(noisy)).mean().item()
    assert r_c < 0.8 * r_a, (r_a, r_c)
    print(f"high-band ratio: numpy penalty (no effect) {r_a:.3f}; torch.fft penalty {r_c:.3f}")


if __name__ == "__main__":
    main()
