"""
expect: GL002 45
dynamic: confirm
source: none, invented

Seismology event detection. A learnable 1-D convolutional denoiser cleans three-component waveform
windows and an `EventClassifier` decides earthquake vs. noise. The classifier's forward hands the
denoised trace to its own helper `_envelope_features`, which computes smoothed envelope statistics in
NumPy (`x.detach().cpu().numpy()` ... `torch.from_numpy(...)`). The rebuilt tensor has no history, so
the loss never reaches the denoiser even though it is in the optimizer: its weights get no gradient
and never move. The asserts show the denoiser's grad is None and its weights are unchanged after
training, and that the torch-only version of the same features gives it gradients and moves it.
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class WaveformDenoiser(nn.Module):
    def __init__(self, channels=3, width=9):
        super().__init__()
        self.conv = nn.Conv1d(channels, channels, width, padding=width // 2)

    def forward(self, wave):
        return wave + self.conv(wave)


class EventClassifier(nn.Module):
    def __init__(self, channels=3, n_windows=8, use_numpy=True):
        super().__init__()
        self.n_windows = n_windows
        self.use_numpy = use_numpy
        self.head = nn.Sequential(nn.Linear(channels * n_windows, 32), nn.ReLU(), nn.Linear(32, 1))

    def _envelope_features(self, x):
        if self.use_numpy:
            arr = x.detach().cpu().numpy()
            env = np.abs(arr)
            kernel = np.ones(5) / 5.0
            env = np.apply_along_axis(lambda r: np.convolve(r, kernel, mode="same"), -1, env)
            b, c, t = env.shape
            win = env.reshape(b, c, self.n_windows, t // self.n_windows).mean(-1)
            feats = np.log1p(win).reshape(b, -1).astype(np.float32)
            return torch.from_numpy(feats)
        env = x.abs()
        env = F.avg_pool1d(env, 5, stride=1, padding=2, count_include_pad=False)
        b, c, t = env.shape
        win = env.reshape(b, c, self.n_windows, t // self.n_windows).mean(-1)
        return torch.log1p(win).reshape(b, -1)

    def forward(self, wave):
        return self.head(self._envelope_features(wave)).squeeze(-1)


def synthetic_windows(n=48, t=128, seed=0):
    g = torch.Generator().manual_seed(seed)
    noise = 0.3 * torch.randn(n, 3, t, generator=g)
    labels = (torch.rand(n, generator=g) > 0.5).float()
    onset = torch.randint(20, 80, (n,), generator=g)
    tt = torch.arange(t).float()
    for i in range(n):
        if labels[i] > 0:
            arrival = torch.exp(-0.05 * (tt - onset[i]).clamp(min=0)) * (tt >= onset[i])
            noise[i] += 2.0 * arrival * torch.sin(0.6 * tt)
    return noise, labels


def train(use_numpy, steps=80):
    torch.manual_seed(0)
    denoiser = WaveformDenoiser()
    clf = EventClassifier(use_numpy=use_numpy)
    opt = torch.optim.Adam(list(denoiser.parameters()) + list(clf.parameters()), lr=5e-3)
    wave, labels = synthetic_windows()
    w0 = denoiser.conv.weight.detach().clone()
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = F.binary_cross_entropy_with_logits(clf(denoiser(wave)), labels)
        loss.backward()
        grad = denoiser.conv.weight.grad
        opt.step()
        losses.append(loss.item())
    moved = (denoiser.conv.weight.detach() - w0).abs().max().item()
    return losses, grad, moved


def main():
    losses, grad, moved = train(use_numpy=True)
    assert grad is None, "denoiser unexpectedly received a gradient"
    assert moved == 0.0, moved
    print(f"numpy features: denoiser grad None, weights moved {moved}; loss {losses[0]:.3f}->{losses[-1]:.3f}")

    losses, grad, moved = train(use_numpy=False)
    assert grad is not None and grad.abs().sum() > 0
    assert moved > 1e-3, moved
    assert losses[-1] < losses[0]
    print(f"torch features: denoiser weights moved {moved:.4f}; loss {losses[0]:.3f}->{losses[-1]:.3f}")


if __name__ == "__main__":
    main()
